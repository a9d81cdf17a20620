import { useEffect, useId, useState } from 'react';
import type { TransformControl } from './transform-controls.ts';

export interface TransformControlInputProps {
  control: TransformControl;
  /** The parameter's value, undefined when the preset leaves it unset. */
  value: unknown;
  onChange: (value: unknown) => void;
  /** Messages about this parameter, from the API (saving) or the CDN (the preview). */
  errors: string[];
}

/**
 * One transform parameter with the control its schema calls for: a slider and a number box
 * for a number with a range, a select for a set of values, a checkbox for a boolean, a colour
 * picker for a colour. Every parameter can be left unset ("Clear"), which is not the same as
 * its zero: an unset one takes the original's value.
 */
export function TransformControlInput({ control, value, onChange, errors }: TransformControlInputProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  const invalid = errors.length > 0 || undefined;
  const set = value !== undefined;

  return (
    <div className={`transform-control ${control.kind}${set ? ' is-set' : ''}`}>
      <div className="transform-label">
        <label htmlFor={id} id={`${id}-label`}>
          {control.label}
        </label>
        {set && (
          <button type="button" className="clear-button" onClick={() => onChange(undefined)} aria-label={`Clear ${control.label}`}>
            Clear
          </button>
        )}
      </div>
      <div className="transform-input">
        {control.kind === 'number' && (
          <NumberInput control={control} id={id} value={value} onChange={onChange} describedBy={describedBy} invalid={invalid} />
        )}
        {control.kind === 'select' && (
          <select
            id={id}
            value={set ? String(value) : ''}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => onChange(control.options.find((option) => String(option) === event.target.value))}
          >
            <option value="">Not set</option>
            {control.options.map((option) => (
              <option key={String(option)} value={String(option)}>
                {String(option)}
              </option>
            ))}
          </select>
        )}
        {control.kind === 'boolean' && (
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => onChange(event.target.checked ? true : undefined)}
          />
        )}
        {control.kind === 'colour' && (
          <>
            <input
              id={id}
              type="color"
              value={`#${typeof value === 'string' && /^[0-9a-f]{6}$/i.test(value) ? value : 'ffffff'}`}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(event) => onChange(event.target.value.slice(1))}
            />
            <code className="muted">{set ? String(value) : 'not set'}</code>
          </>
        )}
        {control.kind === 'text' && (
          <input
            id={id}
            value={set ? String(value) : ''}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
          />
        )}
      </div>
      <p id={hintId} className="field-hint muted">
        {control.description} <span className="query-name">CDN: {control.queryName}</span>
      </p>
      {errorId && (
        <p id={errorId} className="field-error">
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}

type NumberControl = Extract<TransformControl, { kind: 'number' }>;

/**
 * A slider for quick changes and a number box for exact ones, on the same value. The box
 * keeps what is typed (an out-of-range number goes to the server, whose message then shows
 * here); a half-typed "-" changes nothing yet.
 */
function NumberInput(props: {
  control: NumberControl;
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  describedBy: string;
  invalid: true | undefined;
}) {
  const { control, id, value, onChange, describedBy, invalid } = props;
  const keyword = typeof value === 'string' && control.keywords.includes(value) ? value : undefined;
  const number = typeof value === 'number' ? value : undefined;
  const [typed, setTyped] = useState(number === undefined ? '' : String(number));
  useEffect(() => {
    // The value changed elsewhere (the slider, Clear): show it, unless the box already says it ("12." is 12, "-" is nothing yet).
    setTyped((current) => {
      if (number === undefined) return Number.isFinite(Number(current)) ? '' : current;
      return current !== '' && Number(current) === number ? current : String(number);
    });
  }, [number]);
  // Unset, the slider rests where the parameter does nothing (0) when its range allows it.
  const resting = control.min <= 0 && control.max >= 0 ? 0 : control.min;

  return (
    <>
      <input
        type="range"
        min={control.min}
        max={control.max}
        step={control.step}
        value={number ?? resting}
        disabled={keyword !== undefined}
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        onChange={(event) => onChange(Number(event.target.value))}
      />
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={control.min}
        max={control.max}
        step={control.step}
        value={keyword ? '' : typed}
        placeholder={keyword ?? 'not set'}
        disabled={keyword !== undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        onChange={(event) => {
          const text = event.target.value;
          setTyped(text);
          if (text === '') onChange(undefined);
          else if (Number.isFinite(Number(text))) onChange(Number(text));
        }}
      />
      {control.keywords.map((word) => (
        <label key={word} className="checkbox">
          <input
            type="checkbox"
            checked={keyword === word}
            aria-label={`${control.label}: ${word}`}
            onChange={(event) => onChange(event.target.checked ? word : undefined)}
          />{' '}
          {word}
        </label>
      ))}
    </>
  );
}
