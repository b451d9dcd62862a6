import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
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
    loop.steps[3] = { id: 'tag', type: 'add_tag', tag: 'x', next: 'hello' };
    expect(problemsOf(loop)[0]!.message).toMatch(/loop: hello → pause → vip → tag → hello/);
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
});
