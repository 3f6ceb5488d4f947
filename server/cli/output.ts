// The CLI's one path to the terminal. Everything a command prints goes through here, so two rules
// hold for every command at once:
// * a closed pipe (`harness export … | head`) ends the command quietly, exit status 0, instead of an
//   unhandled EPIPE stack trace;
// * control characters inside printed values (a task or harness name holding ESC, say) are shown
//   escaped (`\u001b`), never sent raw to the terminal where they could rewrite the screen.
import type { CliIO } from './command.ts';

/**
 * C0 controls except tab and newline, DEL, C1 controls, and the bidirectional overrides that can
 * reorder what a terminal shows.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text safe to print: unsafe characters as `\uXXXX` (valid inside JSON strings too). A carriage
 * return opening the text is kept: that is how a progress line redraws itself.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c, offset: number) =>
    c === '\r' && offset === 0 ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Turns an EPIPE on `stream` into a quiet exit; any other stream error is still thrown. */
export function quietOnClosedPipe(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit(0);
    else throw error;
  });
}

let guarded = false;

/** Installs the closed-pipe rule on the process's stdout and stderr, once. */
function guardProcessPipes(): void {
  if (guarded) return;
  guarded = true;
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
}

/** The real terminal: stdout and stderr with both rules applied. */
export const processIO: CliIO = {
  out: (text) => {
    guardProcessPipes();
    process.stdout.write(terminalText(text));
  },
  err: (text) => {
    guardProcessPipes();
    process.stderr.write(terminalText(text));
  },
  input: process.stdin,
  output: process.stdout,
};
