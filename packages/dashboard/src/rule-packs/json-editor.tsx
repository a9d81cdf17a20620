import { type Ref, useImperativeHandle, useRef } from 'react';

export interface JsonEditorHandle {
  /** Puts the caret at the start of a line (1-based) and scrolls it into view. */
  goToLine(line: number, column?: number): void;
}

/**
 * A plain textarea for JSON with line numbers beside it (lines never wrap, so the numbers stay
 * level with them) and the lines that have problems marked, with their messages as tooltips.
 */
export function JsonEditor({
  id,
  value,
  onChange,
  readOnly,
  problemLines,
  describedBy,
  ref,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  /** Line (1-based) → its messages. */
  problemLines: Map<number, string[]>;
  describedBy?: string;
  ref?: Ref<JsonEditorHandle>;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lineCount = value.split('\n').length;

  useImperativeHandle(ref, () => ({
    goToLine(line, column = 1) {
      const area = textarea.current;
      if (!area) return;
      const lines = area.value.split('\n');
      const start = lines.slice(0, line - 1).reduce((offset, text) => offset + text.length + 1, 0) + Math.max(0, column - 1);
      area.focus();
      area.setSelectionRange(start, start);
      const lineHeight = Number.parseFloat(getComputedStyle(area).lineHeight) || 20;
      area.scrollTop = Math.max(0, (line - 4) * lineHeight);
    },
  }));

  return (
    <div className="json-editor">
      <div className="json-gutter" ref={gutter} aria-hidden="true">
        {Array.from({ length: lineCount }, (_, index) => {
          const messages = problemLines.get(index + 1);
          return (
            <div key={index} className={messages ? 'json-line-number has-problem' : 'json-line-number'} title={messages?.join('\n')}>
              {index + 1}
            </div>
          );
        })}
      </div>
      <textarea
        id={id}
        ref={textarea}
        className="json-text monospace"
        value={value}
        readOnly={readOnly}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        wrap="off"
        aria-describedby={describedBy}
        aria-invalid={problemLines.size > 0 || undefined}
        onChange={(event) => onChange(event.target.value)}
        onScroll={(event) => {
          if (gutter.current) gutter.current.scrollTop = event.currentTarget.scrollTop;
        }}
      />
    </div>
  );
}
