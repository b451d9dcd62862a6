import { ApiError } from '../api/errors.js';
import type { AppContext } from '../context.js';
import { createApiKey } from '../modules/api-keys/create-api-key.js';
import { createForm } from '../modules/forms/create-form.js';
import { connectNumber, numberOfWorkspace } from '../modules/messaging/connected-numbers.js';
import {
  registerWithSimulator,
  simulatorConnection,
  simulatorMounted,
} from '../modules/messaging/simulator-link.js';
import { saveTemplate, type TemplateInput } from '../modules/templates/save-template.js';
import { createWorkspace } from '../modules/workspaces/create-workspace.js';
import { seedDemoAutomations } from './demo-automations.js';
import { seedDemoConversations } from './demo-conversations.js';
import { giveDemoAnOwner } from './demo-owner.js';

const APPROVED: TemplateInput[] = [
  {
    name: 'welcome',
    language: 'en',
    category: 'MARKETING',
    body: 'Hi {{1}}, welcome to {{2}}!',
    status: 'APPROVED',
  },
  {
    name: 'order_update',
    language: 'en',
    category: 'UTILITY',
    body: 'Your order {{1}} is now {{2}}. Reply HELP for support.',
    status: 'APPROVED',
  },
  {
    name: 'hello_world',
    language: 'en_US',
    category: 'UTILITY',
    body: 'Hello from Parley!',
    status: 'APPROVED',
  },
  // A template with more than a body (README: "Templates with a header, named variables or buttons").
  {
    name: 'summer_sale',
    language: 'en_US',
    category: 'MARKETING',
    body: 'Hi {{first_name}}, {{discount}} off everything until Sunday!',
    status: 'APPROVED',
    parameterFormat: 'NAMED',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2UvanBlZw==:demo'] } },
      {
        type: 'BODY',
        text: 'Hi {{first_name}}, {{discount}} off everything until Sunday!',
        example: {
          body_text_named_params: [
            { param_name: 'first_name', example: 'Asha' },
            { param_name: 'discount', example: '25%' },
          ],
        },
      },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          {
            type: 'URL',
            text: 'Shop',
            url: 'https://shop.example.com/sale/{{1}}',
            example: ['https://shop.example.com/sale/s25'],
          },
          { type: 'QUICK_REPLY', text: 'Not interested' },
        ],
      },
    ],
  },
];
const PENDING: TemplateInput = {
  name: 'spring_sale',
  language: 'en',
  category: 'MARKETING',
  body: 'Spring sale: {{1}} off until {{2}}',
  status: 'PENDING',
};

/**
 * A fresh demo workspace (default country code 91) with approved and pending templates, two customers'
 * conversations, and an owner who can see it in the web app (see giveDemoAnOwner).
 */
export async function seedDemo(ctx: AppContext) {
  // A number connected to a simulator that is not there could not send: say so before making anything.
  if (!simulatorMounted(ctx)) {
    throw new ApiError(
      'conflict',
      'the WhatsApp simulator is not mounted on this server, so a demo number could not send: set ' +
        'SIMULATOR=true and SIMULATOR_TOKEN (on the server and for this command), or create a workspace ' +
        'and connect a real number with `parley number connect`',
    );
  }
  const workspace = await createWorkspace(ctx.db, { name: 'Demo', defaultCountryCode: '91', plan: 'growth' });
  const key = await createApiKey(ctx.db, workspace.id, 'Demo key');
  const variableCounts = new Map<string, number>();
  for (const t of [...APPROVED, PENDING])
    variableCounts.set(t.name, (await saveTemplate(ctx.db, workspace.id, t)).variableCount);
  const connection = simulatorConnection(ctx);
  const number = await connectNumber(ctx, workspace.id, connection);
  const connected = await numberOfWorkspace(ctx, ctx.db, workspace.id);
  // Registered now when the server runs (this command came over its socket); else on its next start.
  await registerWithSimulator(ctx, connected!);
  const form = await createForm(ctx.db, workspace.id, {
    name: 'Talk to us',
    thankYouMessage: 'Thanks! We will message you on WhatsApp shortly.',
  });
  const inactiveForm = await createForm(ctx.db, workspace.id, { name: 'Old offer', active: false });
  const automations = await seedDemoAutomations(ctx, workspace.id, form.id);
  const customers = await seedDemoConversations(ctx, connected!);
  const signIn = await giveDemoAnOwner(ctx.db, ctx.config.appUrl, workspace.id);
  return {
    app_url: ctx.config.appUrl,
    sign_in: signIn,
    customers,
    base_url: `${ctx.config.appUrl}/api/v1`,
    workspace_id: workspace.id,
    api_key: key.key,
    templates: APPROVED.map((t) => ({
      name: t.name,
      language: t.language,
      variable_count: variableCounts.get(t.name),
    })),
    pending_template: { name: PENDING.name, language: PENDING.language },
    simulator_url: connection.graphBaseUrl,
    simulator_token: ctx.config.simulatorToken,
    connected_number: {
      id: number.id,
      display_phone: connection.displayPhone,
      phone_number_id: connection.phoneNumberId,
    },
    form,
    inactive_form: inactiveForm,
    ...automations,
  };
}
