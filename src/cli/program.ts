import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ApiError } from '../api/errors.js';
import { ConfigError, loadConfig } from '../config/env.js';
import { MigrationFailedError } from '../db/migrate.js';
import { createBackup } from '../modules/backups/create-backup.js';
import { BackupError } from '../modules/backups/manifest.js';
import { MoveError } from '../modules/backups/move-data-dir.js';
import { restoreBackup } from '../modules/backups/restore-backup.js';
import type { GraphTemplateComponent } from '../modules/messaging/cloud-api/types.js';
import { PendingMigrationsError } from '../runtime/compose.js';
import { serve } from '../runtime/serve.js';
import { runSimulator } from '../simulator/standalone.js';
import type { CommandInput, CommandName } from './commands.js';
import { type MoveCommand, runMove } from './move.js';
import { runOperatorCommand } from './run-operator-command.js';

const program = new Command('parley')
  .description('Parley: WhatsApp messaging and lead capture, self-hosted')
  .showHelpAfterError();

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number, 0 or more');
  return n;
}

function jsonArray(value: string): GraphTemplateComponent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected a JSON array');
  }
  if (!Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON array');
  return parsed as GraphTemplateComponent[];
}

/** Runs a database command and prints its result: JSON with --json, else one "key: value" per line. */
async function run<N extends CommandName>(name: N, input: CommandInput<N>, json: boolean): Promise<void> {
  print((await runOperatorCommand(loadConfig(), name, input)) as Record<string, unknown>, json);
}

function print(result: object, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  for (const [key, value] of Object.entries(result)) {
    process.stdout.write(`${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}\n`);
  }
}

program
  .command('serve')
  .description('run the service (HTTP and job workers by default)')
  .addOption(
    new Option('--role <role>', 'what this process runs').choices(['all', 'api', 'worker']).default('all'),
  )
  .action(async (opts: { role: 'all' | 'api' | 'worker' }) => serve(loadConfig(), opts.role));

program
  .command('migrate')
  .description('apply pending database migrations')
  .option('--json', 'machine-readable output')
  .action(async (opts: { json?: boolean }) => run('migrate', undefined as never, !!opts.json));

const workspace = program.command('workspace').description('manage workspaces');
workspace
  .command('create')
  .description('create a workspace and its first API key')
  .requiredOption('--name <name>', 'workspace name')
  .option('--default-country-code <code>', 'calling code used for numbers given without one, e.g. 91')
  .option('--plan <plan>', 'plan name (default: free)')
  .option('--json', 'machine-readable output')
  .action(async (opts: { name: string; defaultCountryCode?: string; plan?: string; json?: boolean }) =>
    run(
      'workspace.create',
      { name: opts.name, defaultCountryCode: opts.defaultCountryCode, plan: opts.plan },
      !!opts.json,
    ),
  );

const apikey = program.command('apikey').description('manage API keys');
apikey
  .command('create')
  .description('create an API key (shown once)')
  .requiredOption('--workspace <id>', 'workspace id')
  .option('--name <name>', 'a label for the key')
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; name?: string; json?: boolean }) =>
    run('apikey.create', { workspaceId: opts.workspace, name: opts.name }, !!opts.json),
  );
apikey
  .command('revoke')
  .description('revoke an API key')
  .requiredOption('--id <id>', 'API key id')
  .option('--json', 'machine-readable output')
  .action(async (opts: { id: string; json?: boolean }) => run('apikey.revoke', { id: opts.id }, !!opts.json));

program
  .command('plan')
  .description('manage plans')
  .command('set <name>')
  .description('create a plan or change its limits')
  .requiredOption('--contacts <n>', 'contact limit', integer)
  .requiredOption('--monthly-leads <n>', 'leads per calendar month', integer)
  .requiredOption('--messages-per-month <n>', 'messages per calendar month', integer)
  .option('--json', 'machine-readable output')
  .action(
    async (
      name: string,
      opts: { contacts: number; monthlyLeads: number; messagesPerMonth: number; json?: boolean },
    ) => run('plan.set', { name, ...opts }, !!opts.json),
  );

program
  .command('number')
  .description("the workspace's WhatsApp number")
  .command('connect')
  .description('connect a WhatsApp Cloud API number, then sync its templates')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--phone-number-id <id>', 'the phone number id in WhatsApp Manager')
  .requiredOption('--business-account-id <id>', 'the WhatsApp Business account id')
  .requiredOption('--display-phone <phone>', 'the number as people see it')
  .option(
    '--graph-url <url>',
    'Graph API base URL (default GRAPH_API_URL; a simulator: http://HOST:PORT/_sim)',
  )
  .option(
    '--messages-per-second <n>',
    "the number's throughput on the network, 1 to 1000 (default 80; kept on reconnect)",
    integer,
  )
  .option('--json', 'machine-readable output')
  .addHelpText(
    'after',
    '\nSecrets come from the environment, not flags (flags show in process lists):\n' +
      '  WHATSAPP_ACCESS_TOKEN, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN',
  )
  .action(
    async (opts: {
      workspace: string;
      phoneNumberId: string;
      businessAccountId: string;
      displayPhone: string;
      graphUrl?: string;
      messagesPerSecond?: number;
      json?: boolean;
    }) => {
      const secret = (name: string) => {
        const value = process.env[name];
        if (!value) throw new ApiError('bad_request', `set ${name} in the environment`);
        return value;
      };
      await run(
        'number.connect',
        {
          workspaceId: opts.workspace,
          phoneNumberId: opts.phoneNumberId,
          businessAccountId: opts.businessAccountId,
          displayPhone: opts.displayPhone,
          graphBaseUrl: opts.graphUrl ?? loadConfig().graphApiUrl,
          accessToken: secret('WHATSAPP_ACCESS_TOKEN'),
          appSecret: secret('WHATSAPP_APP_SECRET'),
          verifyToken: secret('WHATSAPP_VERIFY_TOKEN'),
          messagesPerSecond: opts.messagesPerSecond,
        },
        !!opts.json,
      );
    },
  );

const templates = program.command('templates').description('message templates');
templates
  .command('create')
  .description('submit a template to the WhatsApp Business account for review (PENDING until approved)')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--name <name>', 'lowercase letters, digits and _')
  .requiredOption('--language <code>', 'e.g. en, en_US, pt_BR')
  .requiredOption('--category <category>', 'MARKETING, UTILITY or AUTHENTICATION')
  .option('--body <text>', 'the body, variables written {{1}}, {{2}}, ... (or give --components)')
  .option('--example <value...>', "sample values for the body's variables, in order")
  .option(
    '--components <json>',
    "every component in Meta's creation shape, a JSON array (header, body, footer, buttons)",
    jsonArray,
  )
  .addOption(
    new Option('--parameter-format <format>', 'how variables are written').choices(['POSITIONAL', 'NAMED']),
  )
  .addOption(
    new Option('--otp-type <type>', "an AUTHENTICATION template's button").choices([
      'COPY_CODE',
      'ONE_TAP',
      'ZERO_TAP',
    ]),
  )
  .option('--code-expiration-minutes <n>', 'AUTHENTICATION: "This code expires in <n> minutes."', integer)
  .option('--security-recommendation', 'AUTHENTICATION: "For your security, do not share this code."')
  .option('--json', 'machine-readable output')
  .action(
    async (opts: {
      workspace: string;
      name: string;
      language: string;
      category: string;
      body?: string;
      example?: string[];
      components?: GraphTemplateComponent[];
      parameterFormat?: 'POSITIONAL' | 'NAMED';
      otpType?: 'COPY_CODE' | 'ONE_TAP' | 'ZERO_TAP';
      codeExpirationMinutes?: number;
      securityRecommendation?: boolean;
      json?: boolean;
    }) =>
      run(
        'templates.create',
        {
          workspaceId: opts.workspace,
          name: opts.name,
          language: opts.language,
          category: opts.category,
          ...(opts.body !== undefined ? { body: opts.body } : {}),
          ...(opts.example ? { examples: opts.example } : {}),
          ...(opts.components ? { components: opts.components } : {}),
          ...(opts.parameterFormat ? { parameter_format: opts.parameterFormat } : {}),
          ...(opts.otpType ? { otp_type: opts.otpType } : {}),
          ...(opts.codeExpirationMinutes !== undefined
            ? { code_expiration_minutes: opts.codeExpirationMinutes }
            : {}),
          ...(opts.securityRecommendation ? { add_security_recommendation: true } : {}),
        },
        !!opts.json,
      ),
  );
templates
  .command('sync')
  .description("copy the connected number's templates from the network now")
  .requiredOption('--workspace <id>', 'workspace id')
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; json?: boolean }) =>
    run('templates.sync', { workspaceId: opts.workspace }, !!opts.json),
  );

program
  .command('webhook')
  .description('outbound webhooks to your systems')
  .command('create')
  .description('add an endpoint; prints its signing secret (Standard Webhooks), shown once')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--url <url>', 'where to POST events')
  .option(
    '--events <list>',
    'comma-separated: message.status, message.received, lead.created, flow.run.finished, contact.opted_out, contact.opted_in, broadcast.completed, number.paused, number.resumed, conversation.created, conversation.assigned, conversation.resolved',
  )
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; url: string; events?: string; json?: boolean }) =>
    run(
      'webhook.create',
      { workspaceId: opts.workspace, url: opts.url, events: opts.events?.split(',').map((e) => e.trim()) },
      !!opts.json,
    ),
  );

const form = program.command('form').description('lead capture forms');
form
  .command('create')
  .description('create a form (name, e-mail and phone fields); prints its id and public token')
  .requiredOption('--workspace <id>', 'workspace id')
  .option('--name <name>', 'the form name, shown on its hosted page')
  .option('--inactive', 'create it switched off (submissions answer 404)')
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; name?: string; inactive?: boolean; json?: boolean }) =>
    run(
      'form.create',
      { workspaceId: opts.workspace, name: opts.name, inactive: !!opts.inactive },
      !!opts.json,
    ),
  );
form
  .command('embed')
  .description('print the hosted page URL, the <script> embed and the plain HTML <form> snippet')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--id <id>', 'form id')
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; id: string; json?: boolean }) =>
    run('form.embed', { workspaceId: opts.workspace, id: opts.id }, !!opts.json),
  );

function readDefinition(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ApiError('bad_request', `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_json', `${file} is not JSON: ${(err as Error).message}`);
  }
}

const flow = program.command('flow').description('flows: started by events (POST /api/v1/events)');
flow
  .command('create')
  .description('create a flow from a JSON definition (docs/automation.md)')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--file <path>', 'the definition, JSON')
  .option('--publish', 'publish it at once')
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; file: string; publish?: boolean; json?: boolean }) =>
    run(
      'automation.create',
      {
        workspaceId: opts.workspace,
        kind: 'flow',
        definition: readDefinition(opts.file),
        publish: !!opts.publish,
      },
      !!opts.json,
    ),
  );
for (const [verb, publish] of [
  ['publish', true],
  ['unpublish', false],
] as const) {
  flow
    .command(verb)
    .description(
      publish ? 'publish the current draft as a new version' : 'stop new runs (running ones finish)',
    )
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--id <id>', 'flow id')
    .option('--json', 'machine-readable output')
    .action(async (opts: { workspace: string; id: string; json?: boolean }) =>
      run('automation.publish', { workspaceId: opts.workspace, id: opts.id, publish }, !!opts.json),
    );
}

const sequence = program
  .command('sequence')
  .description('sequences: started by the workflow webhook, a form or a new lead');
sequence
  .command('create')
  .description('create and publish a sequence from a JSON definition; prints its webhook secret')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--file <path>', 'the definition, JSON')
  .option('--json', 'machine-readable output')
  .action(async (opts: { workspace: string; file: string; json?: boolean }) =>
    run(
      'automation.create',
      { workspaceId: opts.workspace, kind: 'sequence', definition: readDefinition(opts.file) },
      !!opts.json,
    ),
  );

sequence
  .command('rotate-secret')
  .description('give a webhook sequence a new secret; the old one is refused at once')
  .requiredOption('--id <id>', 'sequence id')
  .option('--json', 'machine-readable output')
  .action(async (opts: { id: string; json?: boolean }) =>
    run('sequence.rotateSecret', { id: opts.id }, !!opts.json),
  );

program
  .command('user')
  .description('people who sign in to the web app')
  .command('reset-password')
  .description(
    "print a one-time link (valid for an hour) that sets a new password; the user's sessions end when it is used",
  )
  .requiredOption('--email <address>', "the user's e-mail address")
  .option('--json', 'machine-readable output')
  .action(async (opts: { email: string; json?: boolean }) =>
    run('user.resetPassword', { email: opts.email }, !!opts.json),
  );

program
  .command('move')
  .description(
    'move the embedded data directory (DATA_DIR) into an empty PostgreSQL database; stop the server first',
  )
  .requiredOption('--to <url>', 'the empty database: postgres://USER:PASSWORD@HOST:PORT/DATABASE')
  .option('--dry-run', 'check everything and count what would move, writing nothing')
  .addOption(
    new Option(
      '--media <store>',
      'where the new server keeps media (default: MEDIA_STORE, else filesystem)',
    ).choices(['filesystem', 'postgres']),
  )
  .option('--json', 'machine-readable output')
  .action(async (opts: MoveCommand) => runMove(opts));

program
  .command('simulator')
  .description('run the WhatsApp Cloud API simulator on its own')
  .option('--port <port>', 'port to listen on', integer, 3100)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .action(async (opts: { port: number; host: string }) => runSimulator(opts.port, opts.host));

program
  .command('demo')
  .description('create a demo workspace with templates and print its ids and keys')
  .option('--json', 'machine-readable output')
  .action(async (opts: { json?: boolean }) => run('demo', undefined as never, !!opts.json));

program
  .command('backup')
  .description('write the embedded database, its media and its secret key to one file, while serving')
  .requiredOption(
    '--out <file>',
    'the archive to write (.tar.gz); replaced only once the new one is complete',
  )
  .option('--json', 'machine-readable output')
  .action(async (opts: { out: string; json?: boolean }) => {
    const config = loadConfig();
    const result = await createBackup(config, opts.out);
    process.stderr.write(
      `parley: ${result.file} holds the secret key that decrypts the stored access tokens and secrets: keep it as safe as the server itself\n`,
    );
    if (config.mediaStore === 's3')
      process.stderr.write(
        'parley: media are in the S3 bucket (MEDIA_STORE=s3), not in this file: back it up on its own\n',
      );
    print(result, !!opts.json);
  });

program
  .command('restore')
  .description(
    'restore a backup into an empty data directory (DATA_DIR), or an empty PostgreSQL database (DATABASE_URL)',
  )
  .requiredOption('--in <file>', 'an archive written by parley backup')
  .option('--json', 'machine-readable output')
  .action(async (opts: { in: string; json?: boolean }) =>
    print(
      await restoreBackup(
        loadConfig(),
        opts.in,
        opts.json ? undefined : (line) => process.stderr.write(`${line}\n`),
      ),
      !!opts.json,
    ),
  );

program.parseAsync().catch((err: unknown) => {
  // An ApiError's message is written for the user, whichever way the command ran; anything else is a fault of ours.
  if (
    err instanceof ApiError ||
    err instanceof ConfigError ||
    err instanceof PendingMigrationsError ||
    err instanceof MigrationFailedError ||
    err instanceof BackupError ||
    err instanceof MoveError
  ) {
    process.stderr.write(`parley: ${err.message}\n`);
  } else {
    process.stderr.write(`parley: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
