import type { TextPosition } from './json-locations.ts';
import type { PackProblem } from './pack-problems.ts';

/**
 * The problems of the pack in the editor, each at its rule and field with a button that
 * moves the caret to its line; or the JSON syntax error that stopped anything else.
 */
export function PackProblemList({
  id,
  problems,
  syntax,
  onGoTo,
}: {
  id: string;
  problems: PackProblem[];
  syntax: { message: string; position: TextPosition } | null;
  onGoTo: (position: TextPosition) => void;
}) {
  if (!syntax && problems.length === 0) return null;
  return (
    <div id={id} className="pack-problems" role="alert">
      {syntax ? (
        <>
          <p>
            <strong>The JSON cannot be read</strong> at line {syntax.position.line}, column {syntax.position.column}: {syntax.message}
          </p>
          <button type="button" className="button" onClick={() => onGoTo(syntax.position)}>
            Go to line {syntax.position.line}
          </button>
        </>
      ) : (
        <>
          <p>
            <strong>
              {problems.length} problem{problems.length === 1 ? '' : 's'} in the pack
            </strong>
          </p>
          <ul>
            {problems.map((problem) => (
              <li key={problem.field} className="pack-problem" data-field={problem.field}>
                <div>
                  <span className="problem-where">{problem.where}</span>
                  {problem.path && (
                    <>
                      {' › '}
                      <code className="problem-path">{problem.path}</code>
                    </>
                  )}
                </div>
                <div className="problem-message">{problem.messages.join(' ')}</div>
                {problem.position && (
                  <button type="button" className="link-button" onClick={() => onGoTo(problem.position!)}>
                    {problem.exact ? `Line ${problem.position.line}` : `Line ${problem.position.line} (where it belongs)`}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
