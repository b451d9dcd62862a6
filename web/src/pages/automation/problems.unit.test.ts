import { describe, expect, it } from 'vitest';
import { TRIGGER_NODE } from './links';
import type { Definition } from './model';
import { draftProblems, placeProblems, problemsOf } from './problems';

const def: Definition = {
  name: 'Shop bot',
  trigger: { type: 'message_received', keywords: ['menu', ''] },
  steps: [
    { id: 'hello', type: 'send_text', text: 'Hi' },
    {
      id: 'menu',
      type: 'ask',
      text: '',
      buttons: [
        { id: 'a', title: 'Track order' },
        { id: 'b', title: '' },
        { id: 'c', title: 'track order' },
      ],
    },
  ],
};

describe('placeProblems', () => {
  it("puts each of the server's problems on its step or the trigger, in words, with the field inside", () => {
    const placed = placeProblems(def, [
      { field: 'steps.1.text', message: 'Fill this in.' },
      { field: 'steps.1.buttons.2.title', message: 'Use at most 20 characters.' },
      { field: 'steps.0', message: 'step "hello": Give it a text.' },
      { field: 'trigger.keywords.1', message: 'Fill this in.' },
      { field: 'name', message: 'Fill this in.' },
      { field: '(definition)', message: 'Remove this field: it is not one this accepts.' },
    ]);
    expect(placed).toEqual([
      { node: 'menu', field: 'text', message: 'Fill this in.', text: 'The question: Fill this in.' },
      {
        node: 'menu',
        field: 'buttons.2.title',
        message: 'Use at most 20 characters.',
        text: "Button 3's title: Use at most 20 characters.",
      },
      { node: 'hello', field: '', message: 'Give it a text.', text: 'Give it a text.' },
      { node: TRIGGER_NODE, field: 'keywords.1', message: 'Fill this in.', text: 'Keyword 2: Fill this in.' },
      { node: null, field: 'name', message: 'Fill this in.', text: 'The name: Fill this in.' },
      {
        node: null,
        field: '(definition)',
        message: 'Remove this field: it is not one this accepts.',
        text: 'The bot: Remove this field: it is not one this accepts.',
      },
    ]);
    expect(problemsOf(placed, 'menu')).toEqual({
      text: 'Fill this in.',
      'buttons.2.title': 'Use at most 20 characters.',
    });
  });

  it('keeps a problem of a step that is gone since off every node', () => {
    expect(placeProblems(def, [{ field: 'steps.7.text', message: 'Fill this in.' }])[0]!.node).toBeNull();
  });
});

describe('draftProblems', () => {
  it('finds an empty question, an option without a title, a repeated title and an empty keyword', () => {
    expect(draftProblems(def)).toEqual([
      { field: 'trigger.keywords.1', message: 'Write the keyword, or remove it.' },
      { field: 'steps.1.text', message: 'Write the question to ask.' },
      { field: 'steps.1.buttons.1.title', message: 'Give this option a title.' },
      { field: 'steps.1.buttons.2.title', message: 'Another option has this title: give each its own.' },
    ]);
  });

  it('finds nothing in a complete question', () => {
    const fine: Definition = {
      ...def,
      trigger: { type: 'message_received' },
      steps: [{ id: 'q', type: 'ask', text: 'Ready?', buttons: [{ id: 'y', title: 'Yes' }] }],
    };
    expect(draftProblems(fine)).toEqual([]);
  });
});
