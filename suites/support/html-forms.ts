// The pages of a web sign-in as a browser reads them: the forms on a page, each with the entries a browser would
// submit (HTML's "constructing the entry list": hidden fields such as CSRF tokens kept, unchecked boxes left
// out), and the authorization code an out-of-band page shows. Parsed by parse5, the WHATWG parsing algorithm.
import { parse, type DefaultTreeAdapterTypes } from 'parse5';

type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

/** A control of a form whose value would be submitted. */
export interface FormField {
  name: string;
  value: string;
  /** The input type (text, email, password, hidden, checkbox...), or select and textarea. */
  type: string;
  /** The autocomplete attribute, which names what a field holds (username, email, current-password). */
  autocomplete: string;
}

export interface HtmlForm {
  /** Where it submits to: the action resolved against the page's address. */
  action: URL;
  method: 'GET' | 'POST';
  /** The controls a browser would submit as the form stands, in document order; submit buttons aside. */
  fields: FormField[];
  /** The first submit button that has a name: a browser sends it as the one pressed. */
  submitter?: { name: string; value: string };
}

/** Input types a person types text into; anything a browser does not know is a text field too. */
const NOT_TEXT = new Set(['hidden', 'password', 'checkbox', 'radio', 'file', 'submit', 'image', 'button', 'reset']);

const attr = (element: Element, name: string): string | undefined => element.attrs.find((a) => a.name === name)?.value;

function* descendants(node: Node): Generator<Element> {
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) {
    if (!('tagName' in child)) continue;
    yield child;
    yield* descendants(child);
  }
  if ('content' in node) yield* descendants(node.content);
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterTypes.TextNode).value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}

const typeOf = (input: Element) => (attr(input, 'type') ?? 'text').toLowerCase();

/** The entries of one control, as a browser builds them; none for a control it would not submit. */
function fieldsOf(element: Element): FormField[] {
  const name = attr(element, 'name');
  if (!name || attr(element, 'disabled') !== undefined) return [];
  const autocomplete = (attr(element, 'autocomplete') ?? '').toLowerCase();
  if (element.tagName === 'textarea') return [{ name, value: textOf(element), type: 'textarea', autocomplete }];
  if (element.tagName === 'select') {
    const options = [...descendants(element)].filter((e) => e.tagName === 'option');
    const chosen = options.filter((o) => attr(o, 'selected') !== undefined);
    const submitted = chosen.length > 0 ? chosen : options.slice(0, attr(element, 'multiple') === undefined ? 1 : 0);
    return submitted.map((o) => ({ name, value: attr(o, 'value') ?? textOf(o).trim(), type: 'select', autocomplete }));
  }
  const type = typeOf(element);
  if (['submit', 'image', 'button', 'reset', 'file'].includes(type)) return [];
  if ((type === 'checkbox' || type === 'radio') && attr(element, 'checked') === undefined) return [];
  return [{ name, value: attr(element, 'value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : ''), type, autocomplete }];
}

function submitterOf(form: Element): HtmlForm['submitter'] {
  for (const element of descendants(form)) {
    const isSubmit = element.tagName === 'button' ? (attr(element, 'type') ?? 'submit').toLowerCase() === 'submit' : element.tagName === 'input' && typeOf(element) === 'submit';
    if (!isSubmit) continue;
    const name = attr(element, 'name');
    return name ? { name, value: attr(element, 'value') ?? '' } : undefined;
  }
  return undefined;
}

/** Every form of an HTML page, with what a browser would submit; `pageUrl` is where the page came from. */
export function formsOf(html: string, pageUrl: URL): HtmlForm[] {
  const forms = [...descendants(parse(html))].filter((e) => e.tagName === 'form');
  return forms.map((form) => {
    const action = new URL(attr(form, 'action') || pageUrl.href, pageUrl);
    action.hash = '';
    const controls = [...descendants(form)].filter((e) => ['input', 'select', 'textarea'].includes(e.tagName));
    return {
      action,
      method: (attr(form, 'method') ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET',
      fields: controls.flatMap(fieldsOf),
      submitter: submitterOf(form),
    };
  });
}

/** Whether a person types into the field: text, email, a field without type... */
export const isTextField = (field: FormField) => !NOT_TEXT.has(field.type) && field.type !== 'select' && field.type !== 'textarea';

/** A Rails form's hidden _method (delete for a deny button), lower case; undefined for a plain form. */
export const methodOverrideOf = (form: HtmlForm) => form.fields.find((f) => f.name === '_method' && f.type === 'hidden')?.value.toLowerCase();

/** The entries to submit: the form's own, with the given values in place of those of the named fields, and the submitter last. */
export function entriesOf(form: HtmlForm, values: ReadonlyMap<string, string> = new Map()): [string, string][] {
  const entries = form.fields.map((f): [string, string] => [f.name, values.get(f.name) ?? f.value]);
  if (form.submitter) entries.push([form.submitter.name, form.submitter.value]);
  return entries;
}

const CODE_LIKE = /^[^\s<>"']{4,512}$/;

/**
 * The authorization code an out-of-band page displays for copying: Mastodon shows it in a read-only
 * `<input class="oauth-code">`, GoToSocial in a `<code>` element, the reference server in `#authorization-code`.
 */
export function codeOnPage(html: string): string | undefined {
  const elements = [...descendants(parse(html))];
  const candidates = [
    ...elements.filter((e) => e.tagName === 'input' && (attr(e, 'class') ?? '').split(/\s+/).includes('oauth-code')).map((e) => attr(e, 'value')),
    ...elements.filter((e) => attr(e, 'id') === 'authorization-code').map((e) => (e.tagName === 'input' ? attr(e, 'value') : textOf(e))),
    ...elements.filter((e) => e.tagName === 'input' && attr(e, 'readonly') !== undefined && typeOf(e) === 'text').map((e) => attr(e, 'value')),
    ...elements.filter((e) => e.tagName === 'code').map(textOf),
  ];
  return candidates.map((c) => c?.trim() ?? '').find((c) => CODE_LIKE.test(c));
}
