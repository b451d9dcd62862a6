import { upload } from '../../api';
import type { HeaderSample } from '../../server-types';
import { Field } from '../../ui/Field';
import { useAction } from '../../ui/use-action';
import type { Draft } from './draft';

const ACCEPT: Record<string, string> = {
  IMAGE: 'image/jpeg,image/png',
  VIDEO: 'video/mp4',
  DOCUMENT: 'application/pdf',
};
const WHAT: Record<string, string> = {
  IMAGE: 'a JPEG or PNG image (up to 5 MB)',
  VIDEO: 'an MP4 video (up to 16 MB)',
  DOCUMENT: 'a PDF (up to 16 MB)',
};

/**
 * A media header's sample for WhatsApp's review: the file goes to Meta's upload API at once (through
 * POST /templates/header-sample), and the handle it answers is what the submit sends.
 */
export function HeaderSampleField({
  header,
  error,
  onChange,
}: {
  header: Draft['header'];
  error?: string;
  onChange: (patch: Partial<Draft['header']>) => void;
}) {
  const sending = useAction();
  const choose = (file: File) =>
    sending.run(async () => {
      onChange({ media: '', fileName: '', preview: '' });
      const form = new FormData();
      form.append('file', file, file.name);
      const answer = await upload<HeaderSample>('/templates/header-sample', form);
      onChange({ media: answer.handle, fileName: file.name, preview: URL.createObjectURL(file) });
    });
  const kind = header.format.toLowerCase();
  const problem = sending.fieldErrors.file ?? sending.error ?? error;
  return (
    <Field
      label={`Sample ${kind}`}
      error={problem ?? undefined}
      hint={
        sending.busy
          ? `Uploading the sample ${kind}…`
          : header.media
            ? `Uploaded ${header.fileName}: WhatsApp reviews the template with it. Each send gives its own file.`
            : `WhatsApp reviews the template with a sample: ${WHAT[header.format]}. Each send gives its own file.`
      }
    >
      {(id) => (
        <input
          id={id}
          type="file"
          accept={ACCEPT[header.format]}
          disabled={sending.busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void choose(file);
          }}
        />
      )}
    </Field>
  );
}
