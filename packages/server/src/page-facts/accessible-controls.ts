import { type CountedInstances, countInstance, MAX_INSTANCES, noInstances, shortenInstance } from './counted-instances.ts';
import { PAGE_FACT_CAPS } from './page-fact-caps.ts';
import type { ControlFacts, PageFacts } from './page-facts.ts';

const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);
/** Inputs `accessibility-basic/input-no-label` leaves out: hidden, or buttons of a kind. */
const UNLABELED_INPUTS = new Set(['hidden', 'submit', 'button', 'image', 'reset']);

/**
 * Buttons without a name, form controls without a label and duplicate ids
 * (`accessibility-basic/*`). A control's `label[for]` may come after it, so controls with
 * an id and no other label wait until the page is read.
 */
export class AccessibleControls {
  readonly #buttons: ControlFacts = { count: 0, failing: noInstances() };
  readonly #controls: ControlFacts = { count: 0, failing: noInstances() };
  readonly #ids = new Set<string>();
  readonly #duplicates = new Set<string>();
  readonly #labelFor = new Set<string>();
  readonly #pending: { id: string; description: string }[] = [];

  noteId(id: string): void {
    if (id === '') return;
    if (this.#ids.has(id)) this.#duplicates.add(id);
    else if (this.#ids.size < PAGE_FACT_CAPS.ids) this.#ids.add(id);
  }

  noteLabelFor(id: string): void {
    if (id !== '' && this.#labelFor.size < PAGE_FACT_CAPS.ids) this.#labelFor.add(id);
  }

  /** A button or `[role=button]`, once its content is read; `named` covers content and alt. */
  button(name: string, attribs: Record<string, string>, named: boolean): void {
    this.#buttons.count++;
    if (!named && !hasLabel(attribs)) countInstance(this.#buttons.failing, () => describeElement(name, attribs));
  }

  /** An `<input>`: a button of a kind, a form control, or neither (hidden, image). */
  input(attribs: Record<string, string>, inLabel: boolean): void {
    const type = (attribs.type ?? 'text').trim().toLowerCase();
    if (BUTTON_INPUTS.has(type)) {
      // Submit and reset buttons have a default label ("Submit", "Reset"); a plain button has none.
      this.button('input', attribs, type !== 'button' || (attribs.value !== undefined && attribs.value.trim() !== ''));
    }
    if (!UNLABELED_INPUTS.has(type)) this.control('input', attribs, inLabel);
  }

  /** A form control; one with an id may still earn a label from a later `label[for]`. */
  control(name: string, attribs: Record<string, string>, inLabel: boolean): void {
    this.#controls.count++;
    if (inLabel || hasLabel(attribs)) return;
    const id = attribs.id?.trim() ?? '';
    if (id === '') countInstance(this.#controls.failing, () => describeElement(name, attribs));
    else if (this.#pending.length < PAGE_FACT_CAPS.pendingControls) this.#pending.push({ id, description: describeElement(name, attribs) });
  }

  finish(): PageFacts['accessibility'] {
    for (const { id, description } of this.#pending) {
      if (!this.#labelFor.has(id)) countInstance(this.#controls.failing, () => description);
    }
    return {
      buttons: this.#buttons,
      controls: this.#controls,
      duplicateIds: duplicateIds(this.#duplicates),
    };
  }
}

function duplicateIds(duplicates: ReadonlySet<string>): CountedInstances {
  const instances: string[] = [];
  for (const id of duplicates) {
    if (instances.length === MAX_INSTANCES) break;
    instances.push(shortenInstance(`#${id}`));
  }
  return { count: duplicates.size, instances };
}

/** A name given by attributes: aria-label, aria-labelledby (not resolved) or title. */
export function hasLabel(attribs: Record<string, string>): boolean {
  for (const key of ['aria-label', 'aria-labelledby', 'title']) {
    const value = attribs[key];
    if (value !== undefined && value.trim() !== '') return true;
  }
  return false;
}

/** `input[type=email][name=mail]#m`: enough to find the element in the source. */
function describeElement(name: string, attribs: Record<string, string>): string {
  let description = name;
  if (attribs.type !== undefined) description += `[type=${attribs.type.trim().toLowerCase()}]`;
  if (attribs.name !== undefined) description += `[name=${attribs.name.trim()}]`;
  if (attribs.id !== undefined && attribs.id.trim() !== '') description += `#${attribs.id.trim()}`;
  return description.slice(0, 120);
}
