import { type Definition, hasWindow, type Option, optionsOf, type Step } from './model';

/** The trigger's node; step ids are letters, digits, _ and -, so it never names a step. */
export const TRIGGER_NODE = '@trigger';

/** A way out of a step: `next`, `if_true`, `on_timeout`... or `option:buttons.0` for a question's option. */
export interface Exit {
  key: string;
  label: string;
}

/** A drawn link between two nodes. `implicit`: a step without `next` goes on to the one below it. */
export interface Link {
  id: string;
  source: string;
  target: string;
  key: string;
  label: string;
  implicit: boolean;
  /** It leads back to the step itself or to one above it. */
  loop: boolean;
}

/** The ways out of a step, in the order its handles are drawn. */
export function exitsOf(step: Step): Exit[] {
  if (step.type === 'condition')
    return [
      { key: 'if_true', label: 'yes' },
      { key: 'if_false', label: 'no' },
    ];
  const exits: Exit[] = optionsOf(step).map(({ option, path }) => ({
    key: `option:${path}`,
    label: option.title || '…',
  }));
  if (step.type !== 'assign' || step.then === 'wait')
    exits.push({ key: 'next', label: exits.length ? 'other answers' : 'then' });
  if (step.type === 'ask') {
    exits.push({ key: 'on_invalid', label: 'invalid' }, { key: 'on_timeout', label: 'timeout' });
  }
  if (hasWindow(step)) exits.push({ key: 'not_sent', label: 'window closed' });
  return exits;
}

/** The option a key names (`option:list.sections.0.rows.1`). */
function optionAt(step: Step, key: string): Option | undefined {
  const path = key.slice('option:'.length);
  return optionsOf(step).find((o) => o.path === path)?.option;
}

/** Where an exit of the step at `index` leads: a step id, or null when the run ends there. */
export function targetOf(
  steps: Step[],
  index: number,
  key: string,
): { target: string | null; implicit: boolean } {
  const step = steps[index]!;
  const value = key.startsWith('option:')
    ? optionAt(step, key)?.next
    : (step[key] as string | null | undefined);
  if (typeof value === 'string') return { target: value, implicit: false };
  // An option without its own next goes where the step's next goes: drawn as the "other answers" link.
  if (value === undefined && key === 'next') return { target: steps[index + 1]?.id ?? null, implicit: true };
  return { target: null, implicit: false };
}

/** Every link of the definition: the trigger to the first step, then each step's exits. */
export function linksOf(def: Definition): Link[] {
  const at = new Map(def.steps.map((s, i) => [s.id, i]));
  const links: Link[] = [];
  const first = def.steps[0];
  if (first)
    links.push({
      id: `${TRIGGER_NODE}>${first.id}`,
      source: TRIGGER_NODE,
      target: first.id,
      key: 'start',
      label: '',
      implicit: true,
      loop: false,
    });
  def.steps.forEach((step, i) => {
    for (const exit of exitsOf(step)) {
      const { target, implicit } = targetOf(def.steps, i, exit.key);
      if (target === null || !at.has(target)) continue;
      links.push({
        id: `${step.id}:${exit.key}>${target}`,
        source: step.id,
        target,
        key: exit.key,
        label: implicit && exit.label === 'then' ? '' : exit.label,
        implicit,
        loop: at.get(target)! <= i,
      });
    }
  });
  return links;
}

/**
 * The definition with one exit of a step pointed at `target`, or cut (null): a cut option falls back
 * to the step's next, a cut next ends the run.
 */
export function setLink(def: Definition, stepId: string, key: string, target: string | null): Definition {
  const steps = def.steps.map((step) => {
    if (step.id !== stepId) return step;
    if (!key.startsWith('option:')) return { ...step, [key]: target };
    const path = key.slice('option:'.length);
    const withNext = (o: Option): Option => {
      const { next: _, ...rest } = o;
      return target === null ? rest : { ...rest, next: target };
    };
    if (path.startsWith('buttons.')) {
      const n = Number(path.split('.')[1]);
      const buttons = (step.buttons as Option[]).map((o, i) => (i === n ? withNext(o) : o));
      return { ...step, buttons };
    }
    const [, , s, , r] = path.split('.').map(Number);
    const list = step.list as { button: string; sections: { title?: string; rows: Option[] }[] };
    const sections = list.sections.map((sec, i) =>
      i === s ? { ...sec, rows: sec.rows.map((o, j) => (j === r ? withNext(o) : o)) } : sec,
    );
    return { ...step, list: { ...list, sections } };
  });
  return { ...def, steps };
}

/** Every link to a removed step is cut, so none points nowhere. */
export function removeStep(def: Definition, id: string): Definition {
  let next: Definition = { ...def, steps: def.steps.filter((s) => s.id !== id) };
  for (const step of next.steps) {
    for (const exit of exitsOf(step)) {
      const value = exit.key.startsWith('option:')
        ? optionAt(step, exit.key)?.next
        : (step[exit.key] as string | null | undefined);
      if (value === id) next = setLink(next, step.id, exit.key, null);
    }
  }
  return next;
}

const STEP_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** Why `to` cannot be the new id of step `from`, in plain words; null when it can. */
export function stepIdProblem(steps: Step[], from: string, to: string): string | null {
  if (!STEP_ID.test(to)) return 'Use 1 to 40 letters, digits, _ or -.';
  if (to !== from && steps.some((s) => s.id === to)) return 'Another step has this id: pick another.';
  return null;
}

/** Placeholders and condition fields that read the step (`steps.<id>.body...`), in any text of a step. */
function renamedReads(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string')
    return value.replace(new RegExp(`\\bsteps\\.${from}(?=[.\\s}|]|$)`, 'g'), `steps.${to}`);
  if (Array.isArray(value)) return value.map((v) => renamedReads(v, from, to));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamedReads(v, from, to)]));
  return value;
}

/** The step `from` named `to`, with every link to it and every read of its outcome following. */
export function renameStep(def: Definition, from: string, to: string): Definition {
  let next: Definition = {
    ...def,
    steps: def.steps.map((s) => {
      const read = renamedReads(s, from, to) as Step;
      return s.id === from ? { ...read, id: to } : read;
    }),
  };
  for (const step of next.steps) {
    for (const exit of exitsOf(step)) {
      const value = exit.key.startsWith('option:')
        ? optionAt(step, exit.key)?.next
        : (step[exit.key] as string | null | undefined);
      if (value === from) next = setLink(next, step.id, exit.key, to);
    }
  }
  return next;
}
