// The pages of a web sign-in as a browser reads them: the forms on a page, each with the entries a browser would
// submit (HTML's "constructing the entry list": hidden fields such as CSRF tokens kept, unchecked boxes left
// out), its buttons and the choices it offers with what a person reads beside them, and the authorization code an
// out-of-band page or a sign-in's answer shows. Parsed by parse5, the WHATWG parsing algorithm.
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

/** A submit button: a browser sends its name and value, when it has a name, as the one pressed. */
export interface SubmitButton {
  name?: string;
  value: string;
  /** What a person reads on it: its text, or the value of an input button. */
  label: string;
}

/** One choice of a radio group or a select: what a person picks among several. */
export interface Choice {
  name: string;
  value: string;
  /** What a person reads beside it: its label's text, or the option's. */
  label: string;
}

export interface HtmlForm {
  /** Where it submits to: the action resolved against the page's address. */
  action: URL;
  method: 'GET' | 'POST';
  /** The controls a browser would submit as the form stands, in document order; submit buttons aside. */
  fields: FormField[];
  /** Every submit button, in document order: pressing Enter presses the first. */
  buttons: SubmitButton[];
  /** The choices of its radio groups and selects, checked or not. */
  choices: Choice[];
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

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

const isSubmit = (element: Element) =>
  element.tagName === 'button' ? (attr(element, 'type') ?? 'submit').toLowerCase() === 'submit' : element.tagName === 'input' && typeOf(element) === 'submit';

function buttonsOf(form: Element): SubmitButton[] {
  return [...descendants(form)].filter((e) => isSubmit(e) && attr(e, 'disabled') === undefined).map((element) => {
    const name = attr(element, 'name');
    const value = attr(element, 'value') ?? '';
    return { ...(name ? { name } : {}), value, label: clean(element.tagName === 'button' ? textOf(element) : value) };
  });
}

/** The text of a control's label: the `<label>` around it, else the one whose `for` names its id. */
function labelOf(element: Element, labelsById: ReadonlyMap<string, string>): string {
  for (let node = element.parentNode; node && 'tagName' in node && node.tagName !== 'form'; node = node.parentNode) {
    if (node.tagName === 'label') return textOf(node);
  }
  const id = attr(element, 'id');
  return (id && labelsById.get(id)) || '';
}

function choicesOf(controls: readonly Element[], labelsById: ReadonlyMap<string, string>): Choice[] {
  return controls.flatMap((element): Choice[] => {
    const name = attr(element, 'name');
    if (!name || attr(element, 'disabled') !== undefined) return [];
    if (element.tagName === 'select') {
      return [...descendants(element)].filter((e) => e.tagName === 'option').map((o) => ({ name, value: attr(o, 'value') ?? clean(textOf(o)), label: clean(textOf(o)) }));
    }
    if (element.tagName !== 'input' || typeOf(element) !== 'radio') return [];
    return [{ name, value: attr(element, 'value') ?? 'on', label: clean(labelOf(element, labelsById)) }];
  });
}

/** The address relative URLs of a page resolve against: its first `<base href>`, else the page's own (HTML's document base URL). */
function baseUrlOf(elements: readonly Element[], pageUrl: URL): URL {
  const base = elements.find((e) => e.tagName === 'base' && attr(e, 'href') !== undefined);
  return (base && URL.parse(attr(base, 'href') as string, pageUrl.href)) || pageUrl;
}

/**
 * Every form of an HTML page, with what a browser would submit; `pageUrl` is where the page came from. A form's
 * action resolves as a browser resolves it: relative to the page's base URL, a form without one submits to the
 * page's own address, and one whose action is no URL is left out (a browser does not submit it).
 */
export function formsOf(html: string, pageUrl: URL): HtmlForm[] {
  const elements = [...descendants(parse(html))];
  const labelsById = new Map(elements.filter((e) => e.tagName === 'label' && attr(e, 'for')).map((e) => [attr(e, 'for') as string, textOf(e)]));
  const base = baseUrlOf(elements, pageUrl);
  return elements
    .filter((e) => e.tagName === 'form')
    .flatMap((form): HtmlForm[] => {
      const given = attr(form, 'action');
      const action = given ? URL.parse(given, base.href) : new URL(pageUrl);
      if (!action) return [];
      action.hash = '';
      const controls = [...descendants(form)].filter((e) => ['input', 'select', 'textarea'].includes(e.tagName));
      return [
        {
          action,
          method: (attr(form, 'method') ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET',
          fields: controls.flatMap(fieldsOf),
          buttons: buttonsOf(form),
          choices: choicesOf(controls, labelsById),
        },
      ];
    });
}

/** Whether a person types into the field: text, email, a field without type... */
export const isTextField = (field: FormField) => !NOT_TEXT.has(field.type) && field.type !== 'select' && field.type !== 'textarea';

/** A Rails form's hidden _method (delete for a deny button), lower case; undefined for a plain form. */
export const methodOverrideOf = (form: HtmlForm) => form.fields.find((f) => f.name === '_method' && f.type === 'hidden')?.value.toLowerCase();

/**
 * The entries to submit when `pressed` is pressed (by default the first button, as Enter does): the form's own, with
 * the given values in place of those of the named fields (a choice of a group where none was checked is added), and
 * the button last when it has a name.
 */
export function entriesOf(form: HtmlForm, values: ReadonlyMap<string, string> = new Map(), pressed: SubmitButton | undefined = form.buttons[0]): [string, string][] {
  const entries = form.fields.map((f): [string, string] => [f.name, values.get(f.name) ?? f.value]);
  for (const [name, value] of values) if (!form.fields.some((f) => f.name === name)) entries.push([name, value]);
  if (pressed?.name) entries.push([pressed.name, pressed.value]);
  return entries;
}

const CODE_LIKE = /^[^\s<>"']{4,512}$/;

/**
 * A page that is nothing but a code: one word of the characters codes are made of, long enough not to be a word of
 * text, or shorter (8 at least) with letters and digits both, as a small server's hex code (no word of a message is).
 */
const WHOLE_CODE = /^(?:[A-Za-z0-9._~+/=-]{16,512}|(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9._~+/=-]{8,15})$/;

/**
 * The authorization code an out-of-band page displays for copying: Mastodon shows it in a read-only
 * `<input class="oauth-code">`, GoToSocial in a `<code>` element, the reference server in `#authorization-code`,
 * others in a `<pre>`, or as the page's whole text. `notCodes`: words the page may show in the same elements that
 * are no code (the scopes asked for).
 */
export function codeOnPage(html: string, notCodes: readonly string[] = []): string | undefined {
  const document = parse(html);
  const elements = [...descendants(document)];
  const candidates = [
    ...elements.filter((e) => e.tagName === 'input' && (attr(e, 'class') ?? '').split(/\s+/).includes('oauth-code')).map((e) => attr(e, 'value')),
    ...elements.filter((e) => attr(e, 'id') === 'authorization-code').map((e) => (e.tagName === 'input' ? attr(e, 'value') : textOf(e))),
    ...elements.filter((e) => e.tagName === 'input' && attr(e, 'readonly') !== undefined && typeOf(e) === 'text').map((e) => attr(e, 'value')),
    ...elements.filter((e) => e.tagName === 'code' || e.tagName === 'pre').map(textOf),
  ];
  const shown = candidates.map((c) => c?.trim() ?? '').find((c) => CODE_LIKE.test(c) && !notCodes.includes(c));
  const body = elements.find((e) => e.tagName === 'body');
  return shown ?? codeAsText(body ? textOf(body) : '');
}

/** The code of an answer that is the code alone (a text/plain page, or an HTML body with no other text). */
export const codeAsText = (text: string): string | undefined => (WHOLE_CODE.test(text.trim()) ? text.trim() : undefined);

/**
 * The code an answer shows, by what it says it is: an HTML page's (codeOnPage), or the whole body of a text/plain
 * answer or of one that names no type (a browser shows it as text). `notCodes` as codeOnPage's.
 */
export function codeInAnswer(contentType: string | undefined, body: string, notCodes: readonly string[] = []): string | undefined {
  if (/html/i.test(contentType ?? '')) return codeOnPage(body, notCodes);
  return !contentType?.trim() || /^text\/plain\b/i.test(contentType) ? codeAsText(body) : undefined;
}
