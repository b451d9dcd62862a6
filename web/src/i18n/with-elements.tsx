import { Fragment, type ReactNode } from 'react';

const MARK = '\u2063';

/**
 * A translated sentence with elements inside it (a <code>, a <strong>): `translate` is called with a
 * marker for each element, and the sentence is cut at the markers, so translators move the element
 * freely and no sentence is assembled from fragments.
 */
export function withElements(
  translate: (values: Record<string, string>) => string,
  elements: Record<string, ReactNode>,
): ReactNode {
  const names = Object.keys(elements);
  const text = translate(Object.fromEntries(names.map((n) => [n, `${MARK}${n}${MARK}`])));
  return text.split(MARK).map((part, i) => (
    // Odd parts are between markers: an element's name.
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts are fixed by the sentence
    <Fragment key={i}>{i % 2 === 1 && part in elements ? elements[part] : part}</Fragment>
  ));
}
