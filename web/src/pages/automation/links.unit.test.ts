import { describe, expect, it } from 'vitest';
import { exitsOf, linksOf, removeStep, renameStep, setLink, stepIdProblem, TRIGGER_NODE } from './links';
import type { Definition } from './model';

/** A keyword bot: a menu of two buttons, one looping back to the menu, and a question with branches. */
const bot = (): Definition => ({
  name: 'Shop bot',
  trigger: { type: 'message_received', keywords: ['menu'] },
  steps: [
    {
      id: 'menu',
      type: 'ask',
      text: 'What can we do for you?',
      buttons: [
        { id: 'track', title: 'Track order', next: 'order' },
        { id: 'again', title: 'Show again', next: 'menu' },
      ],
    },
    { id: 'hello', type: 'send_text', text: 'Hi', not_sent: null },
    {
      id: 'order',
      type: 'ask',
      text: 'Your order number?',
      expect: 'number',
      on_invalid: 'handoff',
      on_timeout: 'menu',
      next: 'handoff',
    },
    { id: 'handoff', type: 'assign', to: null },
  ],
});

const summary = (def: Definition) =>
  linksOf(def).map((l) => `${l.source} -${l.label}${l.loop ? ' (loop)' : ''}-> ${l.target}`);

describe('linksOf', () => {
  it('draws the trigger, each option, the implicit next, the invalid and timeout branches, and marks loops', () => {
    expect(summary(bot())).toEqual([
      `${TRIGGER_NODE} --> menu`,
      'menu -Track order-> order',
      'menu -Show again (loop)-> menu',
      'menu -other answers-> hello',
      'hello --> order',
      'order -then-> handoff',
      'order -invalid-> handoff',
      'order -timeout (loop)-> menu',
    ]);
  });

  it('draws a condition as yes and no, and no link for a null next or a name no step has', () => {
    const def: Definition = {
      name: 'x',
      trigger: { type: 'event', event: 'signup' },
      steps: [
        {
          id: 'a',
          type: 'condition',
          if: { field: 'contact.tags', op: 'exists' },
          if_true: 'b',
          if_false: null,
        },
        { id: 'b', type: 'add_tag', tag: 'vip', next: 'gone' },
        { id: 'c', type: 'resolve', next: null },
      ],
    };
    expect(summary(def)).toEqual([`${TRIGGER_NODE} --> a`, 'a -yes-> b']);
  });

  it('gives an assign a way on only when it waits to be handed back', () => {
    expect(exitsOf({ id: 'h', type: 'assign', to: null }).map((e) => e.key)).toEqual([]);
    // biome-ignore lint/suspicious/noThenProperty: the definition names the field `then`
    expect(exitsOf({ id: 'h', type: 'assign', to: null, then: 'wait' }).map((e) => e.key)).toEqual(['next']);
  });

  it('gives a list question a way out per row', () => {
    const exits = exitsOf({
      id: 'q',
      type: 'ask',
      text: 'Pick',
      list: {
        button: 'Choose',
        sections: [{ rows: [{ id: 'r1', title: 'One' }] }, { rows: [{ id: 'r2', title: 'Two' }] }],
      },
    });
    expect(exits.map((e) => [e.key, e.label])).toEqual([
      ['option:list.sections.0.rows.0', 'One'],
      ['option:list.sections.1.rows.0', 'Two'],
      ['next', 'other answers'],
      ['on_invalid', 'invalid'],
      ['on_timeout', 'timeout'],
      ['not_sent', 'window closed'],
    ]);
  });
});

describe('setLink', () => {
  it("points an option's own branch, and a cut option falls back to the step's next", () => {
    const linked = setLink(bot(), 'menu', 'option:buttons.1', 'handoff');
    expect((linked.steps[0]!.buttons as { next?: string }[])[1]!.next).toBe('handoff');
    const cut = setLink(linked, 'menu', 'option:buttons.1', null);
    expect((cut.steps[0]!.buttons as object[])[1]).toEqual({ id: 'again', title: 'Show again' });
    expect(summary(cut)).toContain('menu -other answers-> hello');
  });

  it('cuts a next to null (the run ends there) and leaves the other steps as they were', () => {
    const def = bot();
    const cut = setLink(def, 'hello', 'next', null);
    expect(cut.steps[1]!.next).toBeNull();
    expect(summary(cut)).not.toContain('hello --> order');
    expect(cut.steps[0]).toBe(def.steps[0]);
  });

  it('points a row of a list', () => {
    const def: Definition = {
      name: 'x',
      trigger: { type: 'message_received' },
      steps: [
        {
          id: 'q',
          type: 'ask',
          text: 'Pick',
          list: { button: 'Choose', sections: [{ rows: [{ id: 'r1', title: 'One' }] }] },
        },
        { id: 'z', type: 'resolve' },
      ],
    };
    expect(summary(setLink(def, 'q', 'option:list.sections.0.rows.0', 'z'))).toContain('q -One-> z');
  });
});

describe('removeStep', () => {
  it('cuts every link to the removed step', () => {
    const def = removeStep(bot(), 'handoff');
    expect(def.steps.map((s) => s.id)).toEqual(['menu', 'hello', 'order']);
    expect(def.steps[2]).toMatchObject({ on_invalid: null, next: null });
    expect(summary(removeStep(bot(), 'order'))).toEqual([
      `${TRIGGER_NODE} --> menu`,
      'menu -Show again (loop)-> menu',
      'menu -other answers-> hello',
      'hello --> handoff',
    ]);
  });
});

describe('renameStep', () => {
  it('renames a step with every link to it and every read of its outcome', () => {
    const def = bot();
    def.steps.push({
      id: 'tell',
      type: 'send_text',
      text: 'It is {{steps.order.answer}} ({{ steps.orders.answer }})',
    });
    def.steps.push({
      id: 'check',
      type: 'condition',
      if: { field: 'steps.order.answer', op: 'exists' },
      if_true: 'order',
      if_false: null,
    });
    const renamed = renameStep(def, 'order', 'order_number');
    expect(renamed.steps.map((s) => s.id)).toEqual([
      'menu',
      'hello',
      'order_number',
      'handoff',
      'tell',
      'check',
    ]);
    expect((renamed.steps[0]!.buttons as { next: string }[]).map((b) => b.next)).toEqual([
      'order_number',
      'menu',
    ]);
    expect(renamed.steps[4]!.text).toBe('It is {{steps.order_number.answer}} ({{ steps.orders.answer }})');
    expect(renamed.steps[5]).toMatchObject({
      if: { field: 'steps.order_number.answer' },
      if_true: 'order_number',
    });
    // The menu's button, the condition's yes, and hello's implicit next.
    expect(linksOf(renamed).filter((l) => l.target === 'order_number')).toHaveLength(3);
  });

  it('says in words why an id cannot be used', () => {
    expect(stepIdProblem(bot().steps, 'order', 'order number')).toBe('Use 1 to 40 letters, digits, _ or -.');
    expect(stepIdProblem(bot().steps, 'order', 'menu')).toBe('Another step has this id: pick another.');
    expect(stepIdProblem(bot().steps, 'order', 'order')).toBeNull();
    expect(stepIdProblem(bot().steps, 'order', 'lookup-2')).toBeNull();
  });
});
