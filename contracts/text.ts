// Caps on stored and shown text, in one place: a hook that throws a 5 MB error or a bridge that
// returns a 5 MB observation would otherwise copy it into every Episode row, run event, step row
// and API reply. What is cut says so, with the original length.
import type { Observation } from '../bridges/core/types.ts';

/** Error messages (Episode.errorMessage, run events): 8 KiB of text. */
export const MAX_MESSAGE_CHARS = 8 * 1024;
/**
 * The message a hook threw, inside the error that names the hook and its line: room is left for
 * that wording, so the stored message is not cut a second time (and keeps the true length).
 */
export const MAX_THROWN_MESSAGE_CHARS = MAX_MESSAGE_CHARS - 1024;
/**
 * Observation text from a bridge. Larger than a message: a code-repair file read or a web page is
 * legitimately a few tens of KiB, and the agent has to see it whole.
 */
export const MAX_OBSERVATION_CHARS = 64 * 1024;
/** Observation data (JSON) from a bridge, as for a hook's reply (sandbox MAX_HOOK_REPLY_BYTES). */
export const MAX_OBSERVATION_DATA_CHARS = 256 * 1024;

/**
 * `text` cut to at most `max` characters, ending with a note of its original length
 * (`originalLength` when `text` is already a prefix of something longer).
 */
export function capText(
  text: string,
  max = MAX_MESSAGE_CHARS,
  originalLength = text.length,
): string {
  if (text.length <= max && originalLength <= text.length) return text;
  const note = ` … [cut: ${originalLength} characters in all]`;
  let end = Math.min(text.length, Math.max(0, max - note.length));
  // Never leave half of a surrogate pair behind.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + note;
}

/** A bridge's observation within the caps (the same object when it already is). */
export function capObservation(o: Observation): Observation {
  const text = capText(o.text, MAX_OBSERVATION_CHARS);
  if (o.data === undefined) return text === o.text ? o : { ...o, text };
  const size = JSON.stringify(o.data)?.length ?? 0;
  if (size <= MAX_OBSERVATION_DATA_CHARS) return text === o.text ? o : { ...o, text };
  const { data: _dropped, ...rest } = o;
  return { ...rest, text: `${text}\n[observation data of ${size} characters dropped]` };
}
