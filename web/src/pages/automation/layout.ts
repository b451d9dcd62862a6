import dagre from '@dagrejs/dagre';
import type { Link } from './links';

export const NODE_WIDTH = 260;
export const NODE_HEIGHT = 96;

/** Positions top to bottom for the nodes, from the links; loops are laid out as if they went down. */
export function layOut(nodes: string[], links: Link[]): Map<string, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 48, ranksep: 72 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of nodes) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  // A link back up would pull its target below its source: leave it out of the ranking.
  for (const l of links) if (!l.loop) g.setEdge(l.source, l.target);
  dagre.layout(g);
  return new Map(
    nodes.map((id) => {
      const n = g.node(id);
      return [id, { x: n.x - NODE_WIDTH / 2, y: n.y - NODE_HEIGHT / 2 }];
    }),
  );
}
