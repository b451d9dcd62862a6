import { type Static, Type } from 'typebox';
import { Text } from '../../api/schema.js';

const MAX_QUESTION = 1024;

// Blank is refused by saveSurveySettings, in words ("Write the question…") rather than the schema's.
const Question = Text({
  maxLength: MAX_QUESTION,
  description: 'What the customer is asked, above the list of ratings 1 to 5 (at most 1024 characters)',
});

/** Settings › Satisfaction survey. */
export const SurveySettings = Type.Object({
  enabled: Type.Boolean({ description: 'Ask for a rating when a conversation is resolved' }),
  question: Question,
});
export type SurveySettings = Static<typeof SurveySettings>;

export const SurveySettingsResult = Type.Object({ result: Type.Literal(true), survey: SurveySettings });

export const SurveySettingsBody = Type.Object(
  { enabled: Type.Boolean(), question: Question },
  { additionalProperties: false },
);

const Day = Type.String({ description: 'A UTC day, YYYY-MM-DD' });
const Average = Type.Union([Type.Number(), Type.Null()], {
  description: 'The mean rating, to two decimals; null without answers',
});

/** The dashboard's satisfaction figures over the period (answers counted by the day they came). */
export const SatisfactionResult = Type.Object({
  result: Type.Literal(true),
  period: Type.Object({ days: Type.Integer(), from: Day, to: Day, time_zone: Type.String() }),
  asked: Type.Integer({ description: 'Surveys sent in the period' }),
  answered: Type.Integer({ description: 'Ratings received in the period' }),
  average: Average,
  distribution: Type.Array(Type.Object({ rating: Type.Integer(), count: Type.Integer() }), {
    description: 'Ratings 1 to 5, each with how many answers gave it',
  }),
  teammates: Type.Array(
    Type.Object({
      user_id: Type.Union([Type.String(), Type.Null()], {
        description: 'The teammate assigned when the conversation was resolved; null: no one was',
      }),
      name: Type.Union([Type.String(), Type.Null()]),
      answered: Type.Integer(),
      average: Average,
    }),
  ),
});
export type SatisfactionResult = Static<typeof SatisfactionResult>;
