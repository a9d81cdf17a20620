import { asLoupeError } from '../api/api-error.ts';

/**
 * The API's error body where it happened (DESIGN.md §4): its message, the form-level and
 * field messages of a validation failure, the code, and the request id of a 500 to quote.
 * Forms that show field errors beside their controls pass `hideFieldErrors`.
 */
export function ErrorMessage({
  error,
  onRetry,
  hideFieldErrors = false,
}: {
  error: unknown;
  onRetry?: () => void;
  hideFieldErrors?: boolean;
}) {
  const failure = asLoupeError(error);
  const { formErrors = [], fieldErrors = {} } = failure.details ?? {};
  const fields = hideFieldErrors ? [] : Object.entries(fieldErrors);
  const requestId = typeof failure.extra.requestId === 'string' ? failure.extra.requestId : undefined;
  return (
    <div className="error-message" role="alert">
      <p>
        <strong>{failure.message}</strong>
      </p>
      {(formErrors.length > 0 || fields.length > 0) && (
        <ul>
          {formErrors.map((message) => (
            <li key={message}>{message}</li>
          ))}
          {fields.map(([field, messages]) => (
            <li key={field}>
              <code>{field}</code>: {messages.join(' ')}
            </li>
          ))}
        </ul>
      )}
      <p className="error-code muted">
        {failure.code}
        {requestId && ` · request ${requestId}`}
      </p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
