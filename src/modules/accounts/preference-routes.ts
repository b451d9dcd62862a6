import type { RestApp } from '../../api/rest-app.js';
import { LanguageBody, LanguageResult } from './schemas.js';
import { setLanguage } from './set-language.js';

/** The signed-in person's own preferences: only ever their own row, whatever workspace they are in. */
export function registerPreferenceRoutes(app: RestApp): void {
  app.put(
    '/me/language',
    { schema: { body: LanguageBody, response: { 200: LanguageResult } } },
    async (request) => {
      const s = request.session();
      await setLanguage(app.ctx.db, s.userId, request.body.language);
      return { result: true as const, language: request.body.language };
    },
  );
}
