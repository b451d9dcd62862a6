import type { Form, FormAnswer } from '../../server-types';
import { Card } from '../../ui/Card';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorNote } from '../../ui/ErrorNote';

export function PublishEmbed({ form, publish }: { form: Form; publish: FormAnswer['publish'] }) {
  return (
    <div className="stack">
      {!form.active && (
        <ErrorNote message="This form is inactive: its page and snippets refuse submissions until you turn it back on." />
      )}
      <Card
        title="Hosted page"
        description="A page Parley serves for you: share the link or put it behind a button."
      >
        <div className="secret">
          <code data-testid="hosted-url">{publish.hosted_url}</code>
          <CopyButton value={publish.hosted_url} />
          <a className="btn small" href={publish.hosted_url} target="_blank" rel="noreferrer">
            Open
          </a>
        </div>
      </Card>
      <Card
        title="Embed script"
        description="Paste where the form should appear; it renders the form and posts it with JavaScript."
      >
        <pre className="snippet">{publish.script}</pre>
        <CopyButton value={publish.script} label="Copy script" />
      </Card>
      <Card title="Plain HTML" description="A form that works without JavaScript; style it as you like.">
        <pre className="snippet">{publish.html}</pre>
        <CopyButton value={publish.html} label="Copy HTML" />
      </Card>
      <Card
        title="Form token"
        description="Public: it identifies the form in submissions (POST /api/forms/submit with a token field)."
      >
        <div className="secret">
          <code>{form.token}</code>
          <CopyButton value={form.token} />
        </div>
      </Card>
    </div>
  );
}
