import {
  applyNodeChanges,
  Background,
  BaseEdge,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  type EdgeProps,
  getBezierPath,
  Handle,
  MarkerType,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useUpdateNodeInternals,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { layOut, NODE_WIDTH } from './layout';
import { type Exit, exitsOf, type Link, linksOf, setLink, TRIGGER_NODE } from './links';
import { type Definition, stepMeta, summarize } from './model';
import type { PlacedProblem } from './problems';

interface NodeData extends Record<string, unknown> {
  icon: string;
  label: string;
  summary: string;
  id: string | null;
  exits: Exit[];
  problems: string[];
  open: boolean;
  onOpen: () => void;
}
type FlowNode = Node<NodeData, 'step'>;

/** A step (or the trigger) on the graph: a button that opens its editor, its problems, a handle per exit. */
function StepNode({ data, id }: NodeProps<FlowNode>) {
  const isTrigger = id === TRIGGER_NODE;
  // Handles come and go with the options: React Flow measures them again, or their edges are not drawn.
  const updateInternals = useUpdateNodeInternals();
  const handles = data.exits.map((e) => e.key).join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the handles change
  useEffect(() => updateInternals(id), [handles, id, updateInternals]);
  return (
    <div
      className={`flow-node${data.open ? ' open' : ''}${data.problems.length ? ' has-problems' : ''}`}
      style={{ width: NODE_WIDTH }}
    >
      {!isTrigger && <Handle type="target" position={Position.Top} />}
      <button type="button" className="flow-node-open" onClick={data.onOpen} aria-expanded={data.open}>
        <span className="step-icon" aria-hidden="true">
          {data.icon}
        </span>
        <span className="step-title">
          <span className="step-type">{data.label}</span>
          <span className="step-summary">{data.summary}</span>
        </span>
        {data.id && <span className="step-id mono">{data.id}</span>}
        {data.problems.length > 0 && (
          <span className="flow-badge" title={data.problems.join(' ')}>
            {data.problems.length} {data.problems.length === 1 ? 'problem' : 'problems'}
          </span>
        )}
      </button>
      {data.problems.length > 0 && (
        <ul className="flow-node-problems">
          {data.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {data.exits.length > 0 && (
        <div className="flow-exits">
          {data.exits.map((e) => (
            <span key={e.key} className="flow-exit">
              {e.label}
            </span>
          ))}
        </div>
      )}
      {data.exits.map((e, i) => (
        <Handle
          key={e.key}
          id={e.key}
          type="source"
          position={Position.Bottom}
          isConnectable={!isTrigger}
          style={{ left: `${((i + 0.5) / data.exits.length) * 100}%` }}
          title={isTrigger ? undefined : `Drag to the step that follows "${e.label}"`}
        />
      ))}
    </div>
  );
}

const nodeTypes = { step: StepNode };

const LOOP_GAP = 24;

/**
 * A link back up: out of the bottom, round the right of the nodes, into the top of the earlier step,
 * so it is never hidden behind the steps it passes.
 */
function LoopEdge({ sourceX, sourceY, targetX, targetY, label, markerEnd, style }: EdgeProps) {
  const right = Math.max(sourceX, targetX) + NODE_WIDTH / 2 + LOOP_GAP;
  const below = sourceY + LOOP_GAP;
  const above = targetY - LOOP_GAP;
  const path = `M ${sourceX} ${sourceY} L ${sourceX} ${below} L ${right} ${below} L ${right} ${above} L ${targetX} ${above} L ${targetX} ${targetY}`;
  return (
    <BaseEdge
      path={path}
      label={label}
      labelX={right}
      labelY={(below + above) / 2}
      markerEnd={markerEnd}
      style={style}
    />
  );
}

/**
 * A link down: a curve whose label sits near its source handle, so the labels of several options
 * going to one step do not fall on each other at the middle.
 */
function LinkEdge(props: EdgeProps) {
  const { sourceX, sourceY, targetX, targetY, label, markerEnd, style } = props;
  const [path] = getBezierPath(props);
  return (
    <BaseEdge
      path={path}
      label={label}
      labelX={sourceX + (targetX - sourceX) * 0.2}
      labelY={sourceY + Math.min(28, (targetY - sourceY) * 0.35)}
      markerEnd={markerEnd}
      style={style}
    />
  );
}

const edgeTypes = { loop: LoopEdge, link: LinkEdge };

function edgeOf(l: Link, selected: string | null): Edge {
  const label = l.loop ? `↺ ${l.label || 'back'}` : l.label;
  return {
    id: l.id,
    source: l.source,
    target: l.target,
    sourceHandle: l.key === 'start' ? 'start' : l.key,
    label: label || undefined,
    type: l.loop ? 'loop' : 'link',
    className: `${l.loop ? 'flow-edge-loop' : ''}${l.implicit ? ' flow-edge-implicit' : ''}`,
    animated: l.loop,
    selected: selected === l.id,
    deletable: l.source !== TRIGGER_NODE,
    markerEnd: { type: MarkerType.ArrowClosed },
    ariaLabel: `${l.source === TRIGGER_NODE ? 'The trigger' : l.source}${l.label ? ` (${l.label})` : ''} ${l.loop ? 'loops back' : 'goes'} to ${l.target}`,
  };
}

interface Props {
  def: Definition;
  triggerText: string;
  placed: PlacedProblem[];
  open: string | null;
  onOpen: (node: string) => void;
  onChange: (def: Definition) => void;
}

/** The bot as a graph: a node per step under the trigger, an edge per link; connect, cut, lay out. */
export function FlowGraph(props: Props) {
  return (
    <ReactFlowProvider>
      <Graph {...props} />
    </ReactFlowProvider>
  );
}

function Graph({ def, triggerText, placed, open, onOpen, onChange }: Props) {
  const flow = useReactFlow();
  const links = useMemo(() => linksOf(def), [def]);
  const [nodes, setNodes] = useState<FlowNode[]>([]);
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const [layoutRound, setLayoutRound] = useState(0);
  const laidOut = useRef(-1);

  useEffect(() => {
    const ids = [TRIGGER_NODE, ...def.steps.map((s) => s.id)];
    const problems = (node: string) => placed.filter((p) => p.node === node).map((p) => p.text);
    const dataOf = (id: string): NodeData => {
      const step = def.steps.find((s) => s.id === id);
      if (!step)
        return {
          icon: '⚡',
          label: 'Trigger',
          summary: triggerText,
          id: null,
          exits: [{ key: 'start', label: '' }],
          problems: problems(TRIGGER_NODE),
          open: open === TRIGGER_NODE,
          onOpen: () => onOpen(TRIGGER_NODE),
        };
      const meta = stepMeta(step.type);
      return {
        icon: meta.icon,
        label: meta.label,
        summary: summarize(step),
        id: step.id,
        exits: exitsOf(step),
        problems: problems(step.id),
        open: open === id,
        onOpen: () => onOpen(id),
      };
    };
    setNodes((prev) => {
      const known = new Map(prev.map((n) => [n.id, n]));
      const everyNode = laidOut.current !== layoutRound;
      const placedAt = everyNode || ids.some((id) => !known.has(id)) ? layOut(ids, links) : null;
      laidOut.current = layoutRound;
      return ids.map((id) => {
        const was = known.get(id);
        const position = (everyNode ? placedAt?.get(id) : was?.position) ?? placedAt!.get(id)!;
        return {
          ...was,
          id,
          type: 'step' as const,
          position,
          data: dataOf(id),
          deletable: false,
          ariaRole: 'group' as const,
          ariaLabel: id === TRIGGER_NODE ? 'Trigger' : `Step ${id}`,
        };
      });
    });
  }, [def, links, placed, open, onOpen, triggerText, layoutRound]);

  // After a layout, or a step added or removed, the view fits the graph again once the nodes are drawn.
  const count = def.steps.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fitted again when the count changes
  useEffect(() => {
    const t = setTimeout(() => void flow.fitView({ padding: 0.15, maxZoom: 1 }), 50);
    return () => clearTimeout(t);
  }, [layoutRound, count, flow]);

  const edges = links.map((l) => edgeOf(l, selectedEdge));
  const byId = new Map(links.map((l) => [l.id, l]));

  const onEdgesChange = (changes: EdgeChange[]) => {
    let next = def;
    for (const c of changes) {
      if (c.type === 'select') setSelectedEdge(c.selected ? c.id : null);
      if (c.type === 'remove') {
        setSelectedEdge(null);
        const l = byId.get(c.id);
        if (l && l.source !== TRIGGER_NODE) next = setLink(next, l.source, l.key, null);
      }
    }
    if (next !== def) onChange(next);
  };
  const onConnect = (c: Connection) => {
    if (c.source === TRIGGER_NODE || !c.sourceHandle) return;
    onChange(setLink(def, c.source, c.sourceHandle, c.target));
  };

  return (
    <div className="flow-canvas">
      <ReactFlow<FlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={(changes: NodeChange<FlowNode>[]) => setNodes((ns) => applyNodeChanges(changes, ns))}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        nodesFocusable={false}
        edgesFocusable={false}
        deleteKeyCode={['Backspace', 'Delete']}
        fitView
        fitViewOptions={{ padding: 0.15 }}
        minZoom={0.3}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
      <div className="flow-canvas-actions">
        <button type="button" className="btn small" onClick={() => setLayoutRound((n) => n + 1)}>
          Lay out
        </button>
        {selectedEdge && byId.has(selectedEdge) && byId.get(selectedEdge)!.source !== TRIGGER_NODE && (
          <button
            type="button"
            className="btn small danger"
            onClick={() => onEdgesChange([{ type: 'remove', id: selectedEdge }])}
          >
            Cut the selected link
          </button>
        )}
      </div>
    </div>
  );
}
