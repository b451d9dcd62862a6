import multipart from '@fastify/multipart';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { MAX_HEADER_SAMPLE_BYTES, receiveHeaderSample } from './header-sample.js';
import { HeaderSampleResult } from './schemas.js';

// Multipart for this route alone (every other route still answers it 415).
const accept = (app: RestApp) =>
  app.register(multipart, {
    limits: { fileSize: MAX_HEADER_SAMPLE_BYTES + 1, files: 1, fields: 2, parts: 3, headerPairs: 20 },
  });

/** The template editor's media header sample: sent to Meta, its handle answered for the submit. */
export async function registerAppHeaderSampleRoute(app: RestApp): Promise<void> {
  await app.register(async (scope: RestApp) => {
    await accept(scope);
    scope.post(
      '/templates/header-sample',
      { schema: { response: { 200: HeaderSampleResult } } },
      // Whoever may submit a template (POST /templates) may upload its sample.
      async (request) => receiveHeaderSample(scope.ctx, request, request.session().workspaceId),
    );
  });
}

export async function registerHeaderSampleRoute(app: RestApp): Promise<void> {
  await app.register(async (scope: RestApp) => {
    await accept(scope);
    scope.post(
      '/templates/header-sample',
      {
        schema: {
          operationId: 'uploadTemplateHeaderSample',
          summary: "Upload a media header's sample for a new template",
          description:
            'multipart/form-data: `file`, a JPEG or PNG image (5 MB), an MP4 video (16 MB) or a PDF (16 MB here), ' +
            "its type read from its bytes. Parley sends it through Meta's Resumable Upload API for the " +
            "workspace's number and answers the handle: give it as the HEADER component's " +
            '`example.header_handle` in POST /templates (IMAGE, VIDEO or DOCUMENT headers need one).',
          tags: ['templates'],
          consumes: ['multipart/form-data'],
          response: { 200: HeaderSampleResult, ...errorResponses(400, 401, 409, 413, 415, 422, 429, 503) },
        },
      },
      async (request) => receiveHeaderSample(scope.ctx, request, request.principal().workspaceId),
    );
  });
}
