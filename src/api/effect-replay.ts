/** A stored answer to a request, replayed to its retry. */
export interface Answer {
  status: number;
  body: unknown;
}

/** How a route whose answer comes after its effect's commit answers a retry from that effect. */
export interface EffectReplay {
  replay(workspaceId: string, effectId: string): Promise<Answer>;
}
