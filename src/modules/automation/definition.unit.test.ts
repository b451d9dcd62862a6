import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { parseDefinition } from './definition.js';

const valid = {
  name: 'Welcome',
  trigger: { type: 'event', event: 'signup' },
  steps: [
    {
      id: 'hello',
      type: 'send_template',
      template: { name: 'welcome', language: 'en', body: ['{{contact.name}}'] },
    },
    { id: 'pause', type: 'wait', duration: '2h' },
    {
      id: 'vip',
      type: 'condition',
      if: { field: 'contact.tags', op: 'contains', value: 'vip' },
      if_true: 'tag',
      if_false: null,
    },
    { id: 'tag', type: 'add_tag', tag: 'welcomed' },
  ],
};

function problemsOf(input: unknown): { field: string; message: string }[] {
  try {
    parseDefinition(input);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'validation_error') return err.details ?? [];
    throw err;
  }
  throw new Error('the definition was accepted');
}

describe('parseDefinition', () => {
  it('accepts a well-formed flow', () => {
    expect(parseDefinition(structuredClone(valid)).steps).toHaveLength(4);
  });

  it('names an unknown step type and where it is', () => {
    const d = structuredClone(valid) as { steps: Record<string, unknown>[] };
    d.steps[1] = { id: 'x', type: 'teleport' };
    expect(problemsOf(d)).toEqual([expect.objectContaining({ field: 'steps.1.type' })]);
  });

  it('reports a missing field against the step, not as a failed union', () => {
    const d = structuredClone(valid) as { steps: Record<string, unknown>[] };
    d.steps[0] = { id: 'hello', type: 'send_template' };
    expect(problemsOf(d)).toEqual([{ field: 'steps.0.template', message: 'Fill this in.' }]);
  });

  it('refuses unknown fields, links to missing steps, repeated ids and loops', () => {
    const extra = structuredClone(valid) as { steps: Record<string, unknown>[] };
    extra.steps[3] = { id: 'tag', type: 'add_tag', tag: 'x', colour: 'red' };
    expect(problemsOf(extra)[0]).toEqual({
      field: 'steps.3.colour',
      message: 'Remove this field: it is not one this accepts.',
    });

    const dangling = structuredClone(valid) as { steps: Record<string, unknown>[] };
    dangling.steps[2] = { ...dangling.steps[2], if_true: 'nowhere' };
    expect(problemsOf(dangling)).toEqual([
      { field: 'steps.2.if_true', message: 'No step has the id "nowhere": pick one that exists.' },
    ]);

    const twice = structuredClone(valid) as { steps: Record<string, unknown>[] };
    twice.steps[3] = { id: 'pause', type: 'add_tag', tag: 'x' };
    expect(problemsOf(twice)).toContainEqual({
      field: 'steps.3.id',
      message: 'Another step has the id "pause": give each step its own.',
    });

    const loop = structuredClone(valid) as { steps: Record<string, unknown>[] };
    loop.steps[3] = { id: 'tag', type: 'add_tag', tag: 'x', next: 'vip' };
    expect(problemsOf(loop)[0]!.message).toMatch(/waits for nothing: vip → tag → vip/);
    // Back to the start through the wait: a loop that waits, allowed.
    loop.steps[3] = { id: 'tag', type: 'add_tag', tag: 'x', next: 'hello' };
    expect(parseDefinition(loop).steps).toHaveLength(4);
  });

  it('needs exactly one of duration or until on a wait, and a known trigger', () => {
    const wait = structuredClone(valid) as { steps: Record<string, unknown>[] };
    wait.steps[1] = { id: 'pause', type: 'wait' };
    expect(problemsOf(wait)).toEqual([
      { field: 'steps.1', message: 'Give a wait either a duration or a time to wait until (one of them).' },
    ]);
    expect(problemsOf({ ...valid, trigger: { type: 'cron' } })[0]!.field).toBe('trigger.type');
    expect(problemsOf({ ...valid, trigger: { type: 'event' } })).toEqual([
      { field: 'trigger.event', message: 'Fill this in.' },
    ]);
    expect(problemsOf({ ...valid, steps: [] })[0]!.field).toBe('steps');
    expect(problemsOf('not an object')[0]!.field).toBe('(definition)');
  });

  it('refuses a loop that waits for nothing, in plain words, and allows one through an ask or a wait', () => {
    const tag = (id: string, next: string) => ({ id, type: 'add_tag', tag: 'x', next });
    const loop = { ...valid, steps: [tag('a', 'b'), tag('b', 'a')] };
    expect(problemsOf(loop)).toEqual([
      {
        field: 'steps',
        message:
          'These steps form a loop that waits for nothing: a → b → a. Put an ask or a wait step in it, or break it.',
      },
    ]);
    const menu = {
      ...valid,
      steps: [
        {
          id: 'menu',
          type: 'ask',
          text: 'Again?',
          buttons: [{ id: 'y', title: 'Yes', next: 'a' }],
          next: null,
        },
        tag('a', 'menu'),
      ],
    };
    expect(parseDefinition(menu).steps).toHaveLength(2);
    const paused = { ...valid, steps: [{ id: 'w', type: 'wait', duration: '1d' }, tag('a', 'w')] };
    expect(parseDefinition(paused).steps).toHaveLength(2);
    // A loop beside the one through the ask still counts.
    const beside = { ...menu, steps: [...menu.steps, tag('c', 'd'), tag('d', 'c')] };
    expect(problemsOf(beside)[0]!.message).toContain('c → d → c');
  });

  it("names an ask's options and kinds that do not go together, and an option leading nowhere", () => {
    const d = {
      ...valid,
      steps: [
        {
          id: 'q',
          type: 'ask',
          text: 'x'.repeat(1025),
          expect: 'number',
          buttons: [
            { id: 'a', title: 'A', next: 'nowhere' },
            { id: 'a', title: 'B' },
            { id: 'c', title: 'b' },
          ],
          list: { button: 'Pick', sections: [{ rows: [{ id: 'r', title: 'R' }] }] },
        },
      ],
    };
    expect(problemsOf(d).map((p) => p.field)).toEqual([
      'steps.0.list',
      'steps.0.expect',
      'steps.0.text',
      'steps.0.buttons.1.id',
      'steps.0.buttons.2.title',
      'steps.0.buttons.0.next',
    ]);
    const sections = {
      ...valid,
      steps: [
        {
          id: 'q',
          type: 'ask',
          text: 'Pick',
          list: {
            button: 'Open',
            sections: [
              { title: 'A', rows: [{ id: 'r1', title: 'One' }] },
              { rows: [{ id: 'r2', title: 'Two' }] },
            ],
          },
        },
      ],
    };
    expect(problemsOf(sections)).toEqual([
      {
        field: 'steps.0.list.sections.1.title',
        message: 'Fill this in: a list with several sections titles each.',
      },
    ]);
    const bad = {
      ...valid,
      steps: [{ id: 'q', type: 'ask', text: 'Hi', save_to: 'contact.phone', timeout: '1w' }],
    };
    expect(
      problemsOf(bad)
        .map((p) => p.field)
        .sort(),
    ).toEqual(['steps.0.save_to', 'steps.0.timeout']);
  });

  it('accepts assign and resolve, and refuses a next after an assign that ends the run', () => {
    const ok = {
      ...valid,
      steps: [
        { id: 'done', type: 'resolve' },
        // biome-ignore lint/suspicious/noThenProperty: the assign step's field
        { id: 'hand', type: 'assign', to: null, then: 'wait', next: 'bye' },
        { id: 'bye', type: 'assign', to: 'usr_1' },
      ],
    };
    expect(parseDefinition(ok).steps).toHaveLength(3);
    const ends = {
      ...valid,
      steps: [
        { id: 'hand', type: 'assign', next: 'x' },
        { id: 'x', type: 'resolve' },
      ],
    };
    expect(problemsOf(ends)).toEqual([
      {
        field: 'steps.0.next',
        message: 'An assign that ends the run goes nowhere after it: remove this, or set then to wait.',
      },
    ]);
  });

  it('takes business hours on a message trigger and in a condition, and refuses other values', () => {
    const withHours = {
      ...structuredClone(valid),
      trigger: { type: 'message_received', hours: 'outside' },
    };
    withHours.steps[2] = { ...withHours.steps[2]!, if: { all: [{ inside_business_hours: false }] } } as never;
    expect(parseDefinition(withHours).trigger).toEqual({ type: 'message_received', hours: 'outside' });
    expect(problemsOf({ ...withHours, trigger: { type: 'message_received', hours: 'night' } })).toEqual([
      expect.objectContaining({ field: 'trigger.hours' }),
    ]);
    const badCheck = structuredClone(withHours);
    badCheck.steps[2] = { ...badCheck.steps[2]!, if: { inside_business_hours: 'yes' } } as never;
    expect(problemsOf(badCheck).map((p) => p.field)).toContain('steps.2.if.inside_business_hours');
  });
});
