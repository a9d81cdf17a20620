/** The excerpts a rule kept of what it found on a page, each as code; nothing when it kept none. */
export function FindingSamples({ samples }: { samples: readonly string[] }) {
  if (samples.length === 0) return null;
  return (
    <ul className="samples">
      {samples.map((sample, index) => (
        <li key={index}>
          <code>{sample}</code>
        </li>
      ))}
    </ul>
  );
}
