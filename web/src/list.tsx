import type { ReactNode } from 'react';
import type { Loaded } from './api';
import { ErrorNote, Loading } from './ui';

/** Rows a paged list asks for at a time; the pager steps by it. */
export const PAGE = 50;

export function Table({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
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
}: {
  list: Loaded<unknown>;
  items: T[] | undefined;
  empty: ReactNode;
  head: ReactNode;
  row: (item: T) => ReactNode;
  page?: { offset: number; hasNext: boolean; onGo: (offset: number) => void };
}) {
  if (list.loading && !list.data) return <Loading />;
  if (list.error) return <ErrorNote message={list.error} onRetry={list.reload} />;
  if (!items?.length) return empty;
  return (
    <>
      <Table head={head}>{items.map(row)}</Table>
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
  if (offset === 0 && !hasNext) return null;
  return (
    <div className="pager">
      <span className="small muted">
        {offset + 1}–{offset + count}
      </span>
      <button
        type="button"
        className="btn small"
        disabled={offset === 0}
        onClick={() => onGo(Math.max(0, offset - PAGE))}
      >
        Previous
      </button>
      <button type="button" className="btn small" disabled={!hasNext} onClick={() => onGo(offset + PAGE)}>
        Next
      </button>
    </div>
  );
}
