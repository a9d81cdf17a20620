/** The head of a before / after / change table, its first column named `first`. */
export function ChangeTableHead({ first }: { first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        <th scope="col" className="numeric">
          Before
        </th>
        <th scope="col" className="numeric">
          After
        </th>
        <th scope="col" className="numeric">
          Change
        </th>
      </tr>
    </thead>
  );
}
