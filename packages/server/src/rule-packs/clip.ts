/** Cuts a text shown in a message or as evidence to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
