'use client';
// Hook code editor: CodeMirror 6 with JavaScript, bundled (no CDN); the line of a compile or run
// error is marked in the gutter and the text.
import { javascript } from '@codemirror/lang-javascript';
import CodeMirror, { Decoration, EditorView } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { useColorMode } from '../layout/color-mode.ts';

function errorLine(line: number | null | undefined) {
  return EditorView.decorations.of((view) => {
    if (!line || line < 1 || line > view.state.doc.lines) return Decoration.none;
    return Decoration.set([
      Decoration.line({ class: 'cm-error-line' }).range(view.state.doc.line(line).from),
    ]);
  });
}

const errorTheme = EditorView.baseTheme({
  '.cm-error-line': { backgroundColor: 'color-mix(in oklch, var(--danger) 18%, transparent)' },
});

export function CodeEditor({
  value,
  onChange,
  errorAt,
  height = '360px',
}: {
  value: string;
  onChange: (code: string) => void;
  errorAt?: number | null;
  height?: string;
}) {
  const colorMode = useColorMode();
  const extensions = useMemo(
    () => [javascript(), EditorView.lineWrapping, errorLine(errorAt), errorTheme],
    [errorAt],
  );
  return (
    <div className="overflow-hidden rounded-lg border text-[13px]" data-testid="code-editor">
      <CodeMirror
        value={value}
        height={height}
        theme={colorMode}
        extensions={extensions}
        onChange={onChange}
        basicSetup={{ foldGutter: false, highlightActiveLine: true }}
      />
    </div>
  );
}
