import type { PublicForm } from './find-form.js';
import { FIELD_VALUE_MAX_LENGTH, HONEYPOT_FIELD } from './form-fields.js';

/** JSON that is safe inside a <script>: no "</script>", no line separators JavaScript chokes on. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The embed script: renders the form where the <script> tag stands (or into the element named by its
 * data-target attribute) and posts it as JSON with fetch to /api/forms/submit on the origin the script
 * came from. Everything shown is set through textContent and attributes, never parsed as HTML.
 */
export function embedScript(form: PublicForm): string {
  const config = {
    token: form.token,
    name: form.name,
    fields: form.fields,
    honeypot: HONEYPOT_FIELD,
    thankYou: form.thankYouMessage ?? 'Thank you! We received your details and will be in touch.',
    redirect: form.redirectUrl,
    maxLength: FIELD_VALUE_MAX_LENGTH,
  };
  return `/* Parley form embed */
(function () {
  var cfg = ${scriptJson(config)};
  var script = document.currentScript;
  if (!script) return;
  var endpoint = new URL('/api/forms/submit', script.src).href;
  var doc = document;
  function el(tag, attrs, text) {
    var node = doc.createElement(tag);
    for (var k in attrs) if (attrs[k] !== undefined && attrs[k] !== false) node.setAttribute(k, attrs[k] === true ? '' : attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  if (!doc.getElementById('parley-form-style')) {
    var style = el('style', { id: 'parley-form-style' });
    style.textContent = '.parley-form{max-width:34rem;font:16px/1.5 system-ui,sans-serif}' +
      '.parley-form .pf-field{margin:0 0 1rem}.parley-form label{display:block;font-weight:600;margin:0 0 .25rem}' +
      '.parley-form input,.parley-form select,.parley-form textarea{box-sizing:border-box;width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8c959f;border-radius:8px}' +
      '.parley-form input[type=checkbox]{width:auto}.parley-form button{font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:8px;background:#1a7f37;color:#fff;cursor:pointer}' +
      '.parley-form .pf-error{color:#cf222e;margin:.25rem 0 0}.parley-form .pf-hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}.parley-form .pf-status{margin:.75rem 0 0}';
    doc.head.appendChild(style);
  }
  var form = el('form', { 'class': 'parley-form', 'data-parley-form': cfg.token });
  var inputs = {};
  cfg.fields.forEach(function (f) {
    var id = 'pf-' + cfg.token.slice(3, 11) + '-' + f.name;
    var wrap = el('div', { 'class': 'pf-field' });
    var input;
    if (f.type === 'textarea') input = el('textarea', { id: id, name: f.name, required: f.required });
    else if (f.type === 'select') {
      input = el('select', { id: id, name: f.name, required: f.required });
      input.appendChild(el('option', { value: '' }, ''));
      (f.options || []).forEach(function (o) { input.appendChild(el('option', { value: o }, o)); });
    } else input = el('input', { id: id, name: f.name, type: f.type, required: f.required, value: f.type === 'checkbox' ? 'yes' : undefined });
    if (input.tagName !== 'SELECT' && f.type !== 'checkbox') input.setAttribute('maxlength', String(cfg.maxLength));
    var label = el('label', { 'for': id }, f.label + (f.required ? ' *' : ''));
    if (f.type === 'checkbox') { wrap.appendChild(input); wrap.appendChild(label); } else { wrap.appendChild(label); wrap.appendChild(input); }
    var error = el('p', { 'class': 'pf-error', id: id + '-error', hidden: true });
    wrap.appendChild(error);
    inputs[f.name] = { input: input, error: error };
    form.appendChild(wrap);
  });
  function showErrors(details) {
    var rest = [];
    for (var name in inputs) {
      inputs[name].error.hidden = true;
      inputs[name].input.removeAttribute('aria-invalid');
      inputs[name].input.removeAttribute('aria-describedby');
    }
    (details || []).forEach(function (d) {
      var at = inputs[String(d.field).split('.')[0]];
      if (!at || !at.error.hidden) { if (!at) rest.push(d.message); return; }
      at.error.textContent = d.message;
      at.error.hidden = false;
      at.input.setAttribute('aria-invalid', 'true');
      at.input.setAttribute('aria-describedby', at.error.id);
    });
    return rest;
  }
  var hp = el('div', { 'class': 'pf-hp', 'aria-hidden': 'true' });
  hp.appendChild(el('input', { type: 'text', name: cfg.honeypot, tabindex: '-1', autocomplete: 'off' }));
  form.appendChild(hp);
  var button = el('button', { type: 'submit' }, 'Send');
  form.appendChild(button);
  var status = el('p', { 'class': 'pf-status', role: 'status', 'aria-live': 'polite' });
  form.appendChild(status);
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var data = { token: cfg.token };
    new FormData(form).forEach(function (value, key) { data[key] = value; });
    button.disabled = true;
    status.textContent = 'Sending...';
    fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) })
      .then(function (res) { return res.json(); })
      .then(function (body) {
        if (body && body.success) {
          if (cfg.redirect) { window.location.href = cfg.redirect; return; }
          var done = el('p', { 'class': 'parley-form pf-thanks', role: 'status' }, cfg.thankYou);
          form.parentNode.replaceChild(done, form);
        } else {
          var details = body && body.details;
          var rest = showErrors(details);
          status.textContent = details && details.length
            ? (rest.length ? rest.join(' ') : 'Please correct the fields marked above.')
            : (body && body.error) || 'The form could not be sent.';
          button.disabled = false;
        }
      })
      .catch(function () {
        status.textContent = 'The form could not be sent; check your connection and try again.';
        button.disabled = false;
      });
  });
  var targetSelector = script.getAttribute('data-target');
  var target = targetSelector && doc.querySelector(targetSelector);
  if (target) target.appendChild(form);
  else script.parentNode.insertBefore(form, script.nextSibling);
})();
`;
}
