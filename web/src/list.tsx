import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Loaded } from './api';
import { ErrorNote } from './ui/ErrorNote';
import { Loading } from './ui/Loading';

/** Rows a paged list asks for at a time; the pager steps by it. */
export const PAGE = 50;

export function Table({ head, children, label }: { head: ReactNode; children: ReactNode; label?: string }) {
  const { t } = useTranslation('ui');
  // Focusable, so a keyboard can scroll a table wider than a phone sideways.
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keys
    <section className="table-wrap" tabIndex={0} aria-label={label ?? t('list.table')}>
      <table>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}

/** A fetched list as a table: loading, its failure with a retry, `empty`, or the rows and, if paged, a pager. */
export function ListTable<T>({
  list,
  items,
  empty,
  head,
  row,
  page,
  label,
}: {
  list: Loaded<unknown>;
  items: T[] | undefined;
  empty: ReactNode;
  head: ReactNode;
  row: (item: T) => ReactNode;
  page?: { offset: number; hasNext: boolean; onGo: (offset: number) => void };
  /** Names the table's scrolling region for screen readers, when a page has several. */
  label?: string;
}) {
  if (list.loading && !list.data) return <Loading />;
  if (list.error) return <ErrorNote message={list.error} onRetry={list.reload} />;
  if (!items?.length) return empty;
  return (
    <>
      <Table head={head} label={label}>
        {items.map(row)}
      </Table>
      {page && <Pager offset={page.offset} count={items.length} hasNext={page.hasNext} onGo={page.onGo} />}
    </>
  );
}

function Pager({
  offset,
  count,
  hasNext,
  onGo,
}: {
  offset: number;
  count: number;
  hasNext: boolean;
  onGo: (offset: number) => void;
}) {
  const { t } = useTranslation('ui');
  if (offset === 0 && !hasNext) return null;
  return (
    <div className="pager">
      <span className="small muted">{t('list.range', { from: offset + 1, to: offset + count })}</span>
      <button
        type="button"
        className="btn small"
        disabled={offset === 0}
        onClick={() => onGo(Math.max(0, offset - PAGE))}
      >
        {t('list.previous')}
      </button>
      <button type="button" className="btn small" disabled={!hasNext} onClick={() => onGo(offset + PAGE)}>
        {t('list.next')}
      </button>
    </div>
  );
}

/** A row of toggle buttons picking one value of a filter (`''` reads "All"), as a labelled group. */
export function Segmented<T extends string | number>({
  legend,
  values,
  value,
  label,
  onPick,
}: {
  legend: string;
  values: readonly T[];
  value: T;
  label?: (v: T) => string;
  onPick: (v: T) => void;
}) {
  const { t } = useTranslation('ui');
  const show = label ?? ((v: T) => String(v) || t('list.all'));
  return (
    <fieldset className="segmented">
      <legend className="sr-only">{legend}</legend>
      {values.map((v) => (
        <button
          key={String(v) || 'all'}
          type="button"
          className={v === value ? 'seg active' : 'seg'}
          aria-pressed={v === value}
          onClick={() => onPick(v)}
        >
          {show(v)}
        </button>
      ))}
    </fieldset>
  );
}
