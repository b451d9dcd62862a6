import { ApiError, type ErrorDetail } from '../../../api/errors.js';
import type { AppContext } from '../../../context.js';
import type { HeaderValue, TemplateValues } from '../../messaging/template-parameters.js';
import { templateComponents } from '../../messaging/template-parameters.js';
import { type StoredTemplate, templateNeeds } from '../../templates/components.js';
import type { Definition, TemplateStep } from '../definition.js';

type Fill = (value: string, part: string) => string;

/** A send_template step's values with every string passed through `fill`, in the shape POST /messages takes. */
export function templateValues(template: TemplateStep, fill: Fill): TemplateValues {
  const values: TemplateValues = {};
  const { body, header, buttons } = template;
  if (Array.isArray(body)) values.body = body.map((v, i) => fill(v, `template.body[${i}]`));
  else if (body)
    values.body = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, fill(v, `template.body.${k}`)]),
    );
  if (typeof header === 'string') values.header = fill(header, 'template.header');
  else if (header) {
    const filled: HeaderValue = {};
    for (const key of ['link', 'id', 'filename', 'name', 'address'] as const) {
      const v = header[key];
      if (v !== undefined) filled[key] = fill(v, `template.header.${key}`);
    }
    for (const key of ['latitude', 'longitude'] as const) {
      const v = header[key];
      if (v !== undefined)
        filled[key] = typeof v === 'number' ? v : Number(fill(v, `template.header.${key}`));
    }
    values.header = filled;
  }
  if (buttons) {
    values.buttons = buttons.map((b, i) => {
      const part = `template.buttons[${i}]`;
      return {
        index: b.index,
        ...(b.payload !== undefined ? { payload: fill(b.payload, `${part}.payload`) } : {}),
        ...(b.text !== undefined ? { text: fill(b.text, `${part}.text`) } : {}),
        ...(b.coupon_code !== undefined ? { coupon_code: fill(b.coupon_code, `${part}.coupon_code`) } : {}),
      };
    });
  }
  return values;
}

const PLACEHOLDER = /\{\{[^}]*\}\}/g;

// What a placeholder stands for when a flow is saved: any text, and for a link or a coordinate
// wholly given by one, a value of the right kind.
const sample: Fill = (value, part) => {
  if (part.endsWith('.link') && /^\s*\{\{/.test(value)) return 'https://example.invalid/media';
  if (/\.(latitude|longitude)$/.test(part) && PLACEHOLDER.test(value)) return '0';
  return value.replace(PLACEHOLDER, 'x');
};

/**
 * Checks each send_template step against its template's components when the workspace has that
 * template (one created later is checked when the step runs, by the same rules as POST /messages).
 * A mismatch is a 422 naming the step and the part (`steps.0.template.header`).
 */
export async function checkTemplateSteps(ctx: AppContext, workspaceId: string, definition: Definition) {
  const problems: ErrorDetail[] = [];
  for (const [i, step] of definition.steps.entries()) {
    if (step.type !== 'send_template') continue;
    const { rows } = await ctx.db.query<StoredTemplate>(
      `SELECT category, body, parameter_format, components FROM templates
       WHERE workspace_id = $1 AND name = $2 AND language = $3
       ORDER BY status = 'APPROVED' DESC LIMIT 1`,
      [workspaceId, step.template.name, step.template.language],
    );
    if (!rows[0]) continue;
    try {
      templateComponents(templateNeeds(rows[0]), templateValues(step.template, sample));
    } catch (err) {
      if (!(err instanceof ApiError) || !err.details) throw err;
      for (const d of err.details)
        problems.push({ field: `steps.${i}.${d.field}`, message: `step "${step.id}": ${d.message}` });
    }
  }
  if (problems.length) {
    const message = `invalid definition: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`;
    throw new ApiError('validation_error', message, problems);
  }
}
