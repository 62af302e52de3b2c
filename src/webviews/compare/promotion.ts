// What promoting a model of a comparison changes in its Space, worked out before anything is saved:
// the update (as the settings editor would send it), the models to turn on or off, and the same as a
// diff in words for the user to look at first.
import * as vscode from 'vscode';
import type { ModelRecord, SpaceUpdateResponse } from '../../api/schemas';
import type { CompareSpace, PromoteAction, Proposal, WeightName } from '../../shared/protocol/compare';
import type { SpaceChanges } from '../../shared/protocol/spaceSettings';
import { activeModels } from '../panels/playgroundData';

const t = vscode.l10n.t;

/** A proposal with what saving it does. */
export interface Plan extends Omit<Proposal, 'id'> {
  changes: SpaceChanges;
  /** Model settings of the Space to turn on or off (for "the only active model"), turned on first. */
  toggles: Array<{ settingId: string; namespace: string; enable: boolean }>;
  /** The failover chain the update asks for, to check what the service kept. */
  chain: string[] | null;
  /** What the Space is told afterwards, in a sentence. */
  done: string;
}

export interface PromoteRequest {
  model: string;
  action: PromoteAction;
  /** For `failover`: the position in the chain, from 1. */
  position: number | null;
  /** For `weights`: the weight to shift toward. */
  toward: WeightName | null;
}

const DEFAULT_WEIGHTS: Record<WeightName, number> = { cost: 1, latency: 1, quality: 1 };

export function compareSpace(view: SpaceUpdateResponse, catalogue: readonly ModelRecord[]): CompareSpace {
  const app = view.main.app;
  const benchmark =
    app.benchmark_model?.namespace ?? catalogue.find((m) => m.id && m.id === app.benchmark_model_id)?.namespace ?? null;
  const permissions = view.main.current_user_permissions;
  return {
    id: app.id,
    name: app.name ?? app.id,
    benchmark,
    failover: view.main.failover_models.map((m) => m.namespace),
    active: activeModels(view),
    weights: { ...DEFAULT_WEIGHTS, ...pickWeights(app.weights) },
    canChat: permissions.includes('use_playground'),
    canEdit: permissions.includes('edit'),
  };
}

const pickWeights = (w: Partial<Record<WeightName, number>> | null | undefined) =>
  w ? { cost: w.cost ?? 1, latency: w.latency ?? 1, quality: w.quality ?? 1 } : {};

/** The weights with half of the other two moved to `toward`, rounded to hundredths. */
export function shiftWeights(w: Record<WeightName, number>, toward: WeightName): Record<WeightName, number> {
  const round = (n: number) => Math.round(n * 100) / 100;
  const others = (['cost', 'latency', 'quality'] as const).filter((k) => k !== toward);
  const moved = others.reduce((sum, k) => sum + w[k] / 2, 0);
  const out = { ...w, [toward]: round(w[toward] + moved) };
  for (const k of others) out[k] = round(w[k] / 2);
  return out;
}

export function weightsLine(w: Record<WeightName, number>): string {
  return t('cost {0} · latency {1} · quality {2}', w.cost, w.latency, w.quality);
}

const chainLine = (chain: string[]) => (chain.length ? chain.join(' → ') : t('empty'));
const listLine = (names: string[]) => (names.length ? names.join(', ') : t('none'));

/** The plan of a promotion, or an Error saying in words why it cannot be made. */
export function planPromotion(view: SpaceUpdateResponse, catalogue: readonly ModelRecord[], ask: PromoteRequest): Plan {
  const space = compareSpace(view, catalogue);
  const record = catalogue.find((m) => m.namespace === ask.model);
  if (!record) throw new Error(t('{0} is not in the model catalogue.', ask.model));
  const none = { toggles: [], chain: null, note: null };
  switch (ask.action) {
    case 'benchmark': {
      if (space.benchmark === ask.model)
        throw new Error(t('{0} is already the benchmark model of "{1}".', ask.model, space.name));
      if (!record.id)
        throw new Error(t('The service gave no id for {0}, so it cannot be made the benchmark model.', ask.model));
      return {
        ...none,
        title: t('Make {0} the benchmark model of "{1}"', ask.model, space.name),
        rows: [{ label: t('Benchmark model'), before: space.benchmark ?? t('none'), after: ask.model }],
        changes: { benchmark_model_id: record.id },
        done: t('{0} is now the benchmark model: compare again to count savings against it.', ask.model),
      };
    }
    case 'failover': {
      const ids = view.main.failover_models.flatMap((m) => (m.id ? [{ id: m.id, namespace: m.namespace }] : []));
      if (!record.id)
        throw new Error(t('The service gave no id for {0}, so it cannot join the failover chain.', ask.model));
      const rest = ids.filter((m) => m.namespace !== ask.model);
      const at = Math.min(Math.max(1, ask.position ?? rest.length + 1), rest.length + 1);
      const chain = [...rest.slice(0, at - 1), { id: record.id, namespace: ask.model }, ...rest.slice(at - 1)];
      const after = chain.map((m) => m.namespace);
      const turnOn = !view.main.app.has_failover_chain;
      if (!turnOn && after.join() === space.failover.join())
        throw new Error(t('{0} is already at position {1} of the failover chain.', ask.model, at));
      return {
        title: t('Put {0} at position {1} of the failover chain of "{2}"', ask.model, at, space.name),
        rows: [
          ...(turnOn ? [{ label: t('Failover'), before: t('off'), after: t('on') }] : []),
          { label: t('Failover chain'), before: chainLine(space.failover), after: chainLine(after) },
        ],
        changes: { failover_model_ids: chain.map((m) => m.id), ...(turnOn ? { has_failover_chain: true } : {}) },
        toggles: [],
        chain: after,
        note: null,
        done: t('{0} is now at position {1} of the failover chain.', ask.model, at),
      };
    }
    case 'only': {
      const settings = [...view.main.base_model_settings, ...view.main.custom_model_settings];
      const own = settings.find((s) => s.namespace === ask.model);
      if (!own)
        throw new Error(
          t('{0} is not one of the models of "{1}", so it cannot be its only active model.', ask.model, space.name),
        );
      const off = settings.filter((s) => s.active && s.namespace !== ask.model);
      if (own.active && off.length === 0)
        throw new Error(t('{0} is already the only active model of "{1}".', ask.model, space.name));
      return {
        title: t('Make {0} the only active model of "{1}"', ask.model, space.name),
        rows: [{ label: t('Active models'), before: listLine(space.active), after: ask.model }],
        changes: {},
        toggles: [
          ...(own.active ? [] : [{ settingId: own.id, namespace: own.namespace, enable: true }]),
          ...off.map((s) => ({ settingId: s.id, namespace: s.namespace, enable: false })),
        ],
        chain: null,
        note: off.length
          ? t(
              'Turned off: {0}. Routing then sends every request without a model to {1}.',
              listLine(off.map((s) => s.namespace)),
              ask.model,
            )
          : null,
        done: t('{0} is now the only active model: routing sends every request without a model to it.', ask.model),
      };
    }
    case 'weights': {
      const toward = ask.toward ?? 'cost';
      const weights = shiftWeights(space.weights, toward);
      const word = weightWord(toward);
      return {
        ...none,
        title: t('Shift the routing weights of "{0}" toward {1}, where {2} won', space.name, word, ask.model),
        rows: [{ label: t('Routing weights'), before: weightsLine(space.weights), after: weightsLine(weights) }],
        changes: { weights },
        done: t('The routing weights now favour {0}.', word),
      };
    }
  }
}

export function weightWord(w: WeightName): string {
  return { cost: t('cost'), latency: t('latency'), quality: t('quality') }[w];
}
