// Add Provider Key… and Remove Provider Key…: the user's own keys for hosted providers, for the
// built-in service (the hosted LLM Spaces service reaches providers with keys of its own).
import { parseKnownFiles } from '@smithy/core/config';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ModelRecord, ProviderState } from '../api/schemas';
import type { Services } from '../services';
import { isRetired, priceLine } from '../shared/models';
import {
  AWS_ACCESS_KEY_ID,
  AWS_PROFILE_KEY,
  AZURE_DEPLOYMENT_NAME,
  GOOGLE_ADC_KEY,
  GOOGLE_API_KEY,
  GOOGLE_KEY_FILES,
  GOOGLE_PROJECT_ID,
  PROVIDER_NAMES,
  providerName,
  type ProviderName,
  type ProviderPlan,
  type GoogleCloudReach,
  type ProviderRegions,
} from '../shared/providerNames';

const t = vscode.l10n.t;

/** What a keybinding, a test or another extension may pass instead of being asked. */
interface KeyPreset {
  provider: string;
  key: string;
  baseUrl?: string;
}

const isPreset = (v: unknown): v is KeyPreset =>
  typeof (v as KeyPreset | null)?.provider === 'string' && typeof (v as KeyPreset).key === 'string';

/** The provider a Models view group stands for, when the command runs from one. */
const providerOfNode = (v: unknown): string | undefined => {
  const group = (v as { kind?: string; group?: { provider?: unknown } } | null)?.group;
  return (v as { kind?: string } | null)?.kind === 'provider' && typeof group?.provider === 'string'
    ? group.provider
    : undefined;
};

function builtInOnly(s: Services): boolean {
  if (s.connection.mode === 'local') return true;
  void vscode.window.showInformationMessage(
    t('Provider keys are for the built-in service. The service in use now reaches providers with keys of its own.'),
  );
  return false;
}

export async function addProviderKey(s: Services, arg?: unknown): Promise<void> {
  if (!builtInOnly(s)) return;
  const preset = isPreset(arg) ? arg : undefined;
  const provider = providerName(preset?.provider ?? providerOfNode(arg)) ?? (await pickProvider(s));
  if (!provider) return;
  /** The key, and what it says of where it is used (an AWS profile's region, a key file's project). */
  const asked: { key: string | undefined; region?: string; project?: string; express?: true } | undefined = preset
    ? { key: preset.key }
    : provider.keyParts
      ? await askAwsKey(provider)
      : provider.googleCloud
        ? await askGoogleKey(provider)
        : { key: await askKey(provider) };
  const key = asked?.key;
  if (key === undefined) return;
  const baseUrl = preset
    ? (preset.baseUrl ?? null)
    : provider.id === 'azure'
      ? await askAzureUrl()
      : provider.plans
        ? await askPlan(provider, provider.plans)
        : provider.regions
          ? await askRegion(provider, provider.regions, asked?.region)
          : provider.googleCloud && !asked?.express
            ? await askGoogleProject(provider, provider.googleCloud, asked?.project)
            : null;
  if (baseUrl === undefined) return;
  await s.providerKeys.add(provider.id, key.trim(), baseUrl);
  const check = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Trying the {0} key…', provider.label) },
    () => s.connection.call((c) => c.checkProvider(provider.id)),
  );
  s.spaces.refresh();
  if (check.ok) {
    void vscode.window.showInformationMessage(check.message);
    return;
  }
  const keep = t('Keep It');
  const remove = t('Remove It');
  const answer = await vscode.window.showWarningMessage(check.message, keep, remove);
  if (answer === remove) await removeKey(s, provider);
}

export async function removeProviderKey(s: Services, arg?: unknown): Promise<void> {
  if (!builtInOnly(s)) return;
  const stored = (await s.providerKeys.stored()).flatMap((id) => providerName(id) ?? []);
  const named = providerName((arg as { provider?: unknown } | null)?.provider as string | undefined);
  if (!named && stored.length === 0) {
    void vscode.window.showInformationMessage(t('No provider key is stored in VS Code.'));
    return;
  }
  const provider =
    named ??
    (
      await vscode.window.showQuickPick(
        stored.map((p) => ({ label: p.label, provider: p })),
        { title: t('Remove Provider Key'), placeHolder: t('Whose key should VS Code forget?') },
      )
    )?.provider;
  if (provider) await removeKey(s, provider);
}

async function removeKey(s: Services, provider: ProviderName): Promise<void> {
  // The store says it handed the keys over: the catalogue is read again (src/extension.ts).
  await s.providerKeys.remove(provider.id);
  s.spaces.refresh();
  vscode.window.setStatusBarMessage(t('The {0} key is removed.', provider.label), 4000);
}

async function pickProvider(s: Services): Promise<ProviderName | undefined> {
  const states = await s.connection.call((c) => c.listProviders()).catch(() => [] as ProviderState[]);
  const stateOf = (id: string) => states.find((p) => p.id === id);
  const keyState = (p: ProviderName) => {
    const state = stateOf(p.id);
    if (state?.key_source === 'environment') return t('key from {0}', state.key_variable);
    if (state?.has_key) return t('key added');
    return '';
  };
  const describe = (p: ProviderName) =>
    [keyState(p), p.embeddingsOnly ? t('embedding models only') : ''].filter(Boolean).join(' · ');
  const pick = await vscode.window.showQuickPick(
    PROVIDER_NAMES.map((p) => ({
      label: p.label,
      description: describe(p),
      detail: t('Get a key at {0}', p.keysPage),
      provider: p,
    })),
    { title: t('Add Provider Key'), placeHolder: t('Which provider is the key for?'), matchOnDescription: true },
  );
  return pick?.provider;
}

function askKey(provider: ProviderName): Thenable<string | undefined> {
  const aws = !!provider.keyParts;
  return vscode.window.showInputBox({
    title: t('{0} key', provider.label),
    prompt: aws
      ? t(
          'Paste your {0} API key, or an IAM access key as ACCESS_KEY_ID:SECRET_ACCESS_KEY, or type profile:NAME to sign with a profile of your AWS configuration (~/.aws: its keys, SSO login or role). VS Code keeps it in its secret storage and hands it to the built-in service; it is never written to a file.',
          provider.label,
        )
      : t(
          'Paste your {0} API key. VS Code keeps it in its secret storage and hands it to the built-in service; it is never written to a file.',
          provider.label,
        ),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) =>
      value.trim().length < 8
        ? t('This is too short to be a key.')
        : provider.googleCloud && !GOOGLE_API_KEY.test(value.trim())
          ? t('A Google Cloud API key is 30 or more letters, digits, dots, hyphens or underscores (AIza… or AQ.…).')
          : aws && AWS_ACCESS_KEY_ID.test(value.trim())
            ? t(
                'This is an access key ID alone: put a colon and its secret access key after it (ACCESS_KEY_ID:SECRET_ACCESS_KEY), or paste a Bedrock API key.',
              )
            : undefined,
  });
}

/** A profile of this machine's AWS configuration, as the key box takes it (AWS_PROFILE_KEY). */
interface AwsProfile {
  name: string;
  /** How it gets its credentials, for people. */
  kind: string;
  region?: string;
}

/**
 * The profiles of this machine's AWS configuration (`~/.aws/config` and `~/.aws/credentials`, or where
 * AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE say), read as AWS's tools read them: names, how each
 * gets its credentials and its region; nothing else of them is kept. None when they cannot be read.
 */
async function awsProfiles(): Promise<AwsProfile[]> {
  let profiles: Record<string, Record<string, string | undefined>>;
  try {
    profiles = await parseKnownFiles({ ignoreCache: true });
  } catch {
    return [];
  }
  return Object.entries(profiles)
    .filter(([name]) => AWS_PROFILE_KEY.test(`profile:${name}`) && !/^(sso-session|services)\./.test(name))
    .map(([name, p]) => ({
      name,
      kind:
        p.sso_session || p.sso_start_url
          ? t('Signs in with AWS IAM Identity Center (SSO)')
          : p.role_arn
            ? t('Assumes a role')
            : p.credential_process
              ? t('Gets its keys from a program')
              : p.aws_access_key_id
                ? t('An access key')
                : t('No credentials of its own'),
      region: p.region,
    }));
}

/**
 * An AWS provider's key (Bedrock's): one pasted, or a profile of this machine's AWS configuration when it
 * has any, with that profile's region to offer first.
 */
async function askAwsKey(provider: ProviderName): Promise<{ key: string | undefined; region?: string } | undefined> {
  const profiles = await awsProfiles();
  if (profiles.length === 0) return { key: await askKey(provider) };
  const paste = { label: t('Paste a key…'), detail: t('A Bedrock API key, or an IAM access key') };
  const pick = await vscode.window.showQuickPick<vscode.QuickPickItem & { profile?: AwsProfile }>(
    [
      paste,
      { label: t('Profiles of your AWS configuration (~/.aws)'), kind: vscode.QuickPickItemKind.Separator },
      ...profiles.map((profile) => ({
        label: profile.name,
        description: profile.region,
        detail: profile.kind,
        profile,
      })),
    ],
    {
      title: t('{0} key', provider.label),
      placeHolder: t('Paste a key, or sign with a profile of your AWS configuration (its keys are never copied)'),
      ignoreFocusOut: true,
    },
  );
  if (!pick) return undefined;
  return pick.profile
    ? { key: `profile:${pick.profile.name}`, region: pick.profile.region }
    : { key: await askKey(provider) };
}

/**
 * A Google Cloud provider's key (Vertex AI's): the machine's own Google Cloud credentials, or a service
 * account's key file, read here and kept as its JSON, with the project it names or the machine's Google
 * Cloud configuration names, to offer first; or an API key, used in express mode (no project asked).
 */
async function askGoogleKey(
  provider: ProviderName,
): Promise<{ key: string; project?: string; express?: true } | undefined> {
  const login = {
    label: t('Your Google Cloud login'),
    detail: t(
      'Application default credentials: the key file GOOGLE_APPLICATION_CREDENTIALS names, or your login of "gcloud auth application-default login"',
    ),
  };
  const file = {
    label: t('A service account key file…'),
    detail: t('The JSON key of a service account with the Vertex AI User role (IAM, Service accounts, Keys)'),
  };
  const apiKey = {
    label: t('An API key (express mode)'),
    detail: t('Gemini models with a Google Cloud API key, without a project; Claude needs one of the ways above'),
  };
  const pick = await vscode.window.showQuickPick([login, file, apiKey], {
    title: t('{0} key', provider.label),
    placeHolder: t('How should the built-in service sign in to Google Cloud?'),
    ignoreFocusOut: true,
  });
  if (!pick) return undefined;
  if (pick === login) return { key: GOOGLE_ADC_KEY, project: await configuredGoogleProject() };
  if (pick === apiKey) {
    const key = await askKey(provider);
    return key === undefined ? undefined : { key, express: true };
  }
  const [uri] =
    (await vscode.window.showOpenDialog({
      title: t('Service account key file'),
      openLabel: t('Use This Key'),
      canSelectMany: false,
      filters: { [t('Key files')]: ['json'] },
    })) ?? [];
  if (!uri) return undefined;
  const json = await googleKeyFile(uri);
  if (!json) return undefined;
  const project = json.project_id ?? json.quota_project_id;
  return { key: JSON.stringify(json), project: typeof project === 'string' ? project : undefined };
}

/** A Google Cloud key file's JSON, or undefined when it is none (said to the user in plain words). */
async function googleKeyFile(uri: vscode.Uri): Promise<Record<string, unknown> | undefined> {
  const name = path.basename(uri.fsPath);
  let json: unknown;
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > 20_000) throw new Error('too long');
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    json = undefined;
  }
  const file = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  if (typeof file.type === 'string' && GOOGLE_KEY_FILES.has(file.type)) return file;
  void vscode.window.showErrorMessage(
    t(
      '{0} is not a Google Cloud key file. Make a key of a service account in the Google Cloud console (IAM, Service accounts, Keys, Add key, JSON) and pick the file it downloads.',
      name,
    ),
  );
  return undefined;
}

/**
 * The project the machine's Google Cloud configuration names, to offer first: the variables Google's
 * tools read, else the project of the application default credentials' file.
 */
async function configuredGoogleProject(): Promise<string | undefined> {
  for (const name of ['GOOGLE_VERTEX_PROJECT', 'GOOGLE_CLOUD_PROJECT', 'CLOUDSDK_CORE_PROJECT']) {
    const value = process.env[name]?.trim();
    if (value && GOOGLE_PROJECT_ID.test(value)) return value;
  }
  const gcloud =
    process.platform === 'win32'
      ? path.join(process.env.APPDATA ?? os.homedir(), 'gcloud')
      : path.join(os.homedir(), '.config', 'gcloud');
  const file = process.env.GOOGLE_APPLICATION_CREDENTIALS || path.join(gcloud, 'application_default_credentials.json');
  try {
    const json = JSON.parse(await readFile(file, 'utf8')) as { project_id?: unknown; quota_project_id?: unknown };
    const project = json.project_id ?? json.quota_project_id;
    return typeof project === 'string' && GOOGLE_PROJECT_ID.test(project) ? project : undefined;
  } catch {
    return undefined;
  }
}

/** The project and location a Google Cloud key is used in (Vertex AI's): that address. */
async function askGoogleProject(
  provider: ProviderName,
  cloud: GoogleCloudReach,
  suggested: string | undefined,
): Promise<string | undefined> {
  const project = (
    await vscode.window.showInputBox({
      title: t('{0} project', provider.label),
      prompt: t('The ID of the Google Cloud project whose Vertex AI answers, as the Google Cloud console shows it.'),
      value: suggested ?? '',
      ignoreFocusOut: true,
      validateInput: (value) =>
        GOOGLE_PROJECT_ID.test(value.trim())
          ? undefined
          : t('A project ID: 6 to 30 lowercase letters, digits or hyphens, starting with a letter.'),
    })
  )?.trim();
  if (!project) return undefined;
  const pick = await vscode.window.showQuickPick(
    Object.entries(cloud.locations).map(([code, name]) => ({
      label: name,
      description: code,
      baseUrl: cloud.baseUrl(project, code),
    })),
    {
      title: t('{0} location', provider.label),
      placeHolder: t('Where should its models answer? Global has the most models.'),
      matchOnDescription: true,
      ignoreFocusOut: true,
    },
  );
  return pick?.baseUrl;
}

/** The plan a key is for, where the provider's plans answer at addresses of their own: that address (null for the default). */
async function askPlan(provider: ProviderName, plans: readonly ProviderPlan[]): Promise<string | null | undefined> {
  const pick = await vscode.window.showQuickPick(
    plans.map((plan) => ({ label: plan.label, detail: plan.detail, plan })),
    {
      title: t('{0} key', provider.label),
      placeHolder: t("Which plan is the key for? It answers only at its plan's address."),
      ignoreFocusOut: true,
    },
  );
  return pick && pick.plan.baseUrl;
}

/** The region a key is used in, where the provider answers in each at its own address (Bedrock): that address. */
async function askRegion(
  provider: ProviderName,
  regions: ProviderRegions,
  /** The region to offer first (an AWS profile's own). */
  preferred?: string,
): Promise<string | undefined> {
  const items = Object.entries(regions.names).map(([code, name]) => ({
    label: name,
    description: code === preferred ? t("{0} · the profile's region", code) : code,
    code,
  }));
  const pick = await vscode.window.showQuickPick(
    [...items.filter((i) => i.code === preferred), ...items.filter((i) => i.code !== preferred)],
    {
      title: t('{0} key', provider.label),
      placeHolder: t('Which region should its models answer from? The key must be allowed there.'),
      matchOnDescription: true,
      ignoreFocusOut: true,
    },
  );
  return pick && regions.baseUrl(pick.code);
}

function askAzureUrl(): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: t('Azure OpenAI resource'),
    prompt: t(
      'The endpoint of your Azure OpenAI resource, as the Azure portal shows it, e.g. https://my-resource.openai.azure.com',
    ),
    value: 'https://',
    ignoreFocusOut: true,
    validateInput: (value) =>
      /^https:\/\/[^/]+\.[^/]+/.test(value.trim()) && URL.canParse(value.trim())
        ? undefined
        : t('An https URL, please.'),
  });
}

/** What a test or another extension may pass instead of being asked: the deployment and the model it runs. */
interface DeploymentPreset {
  deployment: string;
  model: string;
}

const isDeploymentPreset = (v: unknown): v is DeploymentPreset =>
  typeof (v as DeploymentPreset | null)?.deployment === 'string' && typeof (v as DeploymentPreset).model === 'string';

/**
 * Add Azure Deployment…: an Azure OpenAI deployment named otherwise than its model, or of a model the
 * catalogue's Azure list lacks, as the organization's model `azure/<deployment>`, at the prices and
 * with the capabilities of the OpenAI model it runs.
 */
export async function addAzureDeployment(s: Services, arg?: unknown): Promise<void> {
  if (!builtInOnly(s)) return;
  const preset = isDeploymentPreset(arg) ? arg : undefined;
  const deployment = (
    preset?.deployment ??
    (await vscode.window.showInputBox({
      title: t('Add Azure Deployment'),
      prompt: t('The name of the deployment, as your Azure OpenAI resource has it (Azure AI Foundry, Deployments).'),
      ignoreFocusOut: true,
      validateInput: (value) =>
        AZURE_DEPLOYMENT_NAME.test(value.trim())
          ? undefined
          : t('2 to 64 letters, digits, dots, dashes or underscores, please.'),
    }))
  )?.trim();
  if (!deployment) return;
  const model = preset?.model ?? (await pickDeployedModel(s, deployment));
  if (!model) return;
  const added = await s.connection.call((c) => c.addAzureDeployment(deployment, model));
  await s.catalogue.reload();
  s.spaces.refresh();
  void vscode.window.showInformationMessage(
    t(
      '{0} answers through your deployment {1}, at the prices of {2}. Turn it on in a Space to route to it.',
      added.namespace,
      deployment,
      model,
    ),
  );
}

/** The OpenAI model a deployment runs, chosen from the catalogue's current ones. */
async function pickDeployedModel(s: Services, deployment: string): Promise<string | undefined> {
  const models = (await s.catalogue.models()).filter(
    (m) => m.provider === 'openai' && !m.is_test_model && !isRetired(m),
  );
  const pick = await vscode.window.showQuickPick(
    models.map((m) => ({
      label: m.namespace,
      description: priceLine(m),
      namespace: m.namespace,
    })),
    {
      title: t('Add Azure Deployment'),
      placeHolder: t('Which model does {0} run?', deployment),
      matchOnDescription: true,
      ignoreFocusOut: true,
    },
  );
  return pick?.namespace;
}

/** Remove Azure Deployment…: forgets a deployment added, and takes it out of the Spaces that had it. */
export async function removeAzureDeployment(s: Services, arg?: unknown): Promise<void> {
  if (!builtInOnly(s)) return;
  const named = (arg as { deployment?: unknown } | null)?.deployment;
  const deployment = typeof named === 'string' ? named : await pickAddedDeployment(s);
  if (!deployment) return;
  await s.connection.call((c) => c.removeAzureDeployment(deployment));
  await s.catalogue.reload();
  s.spaces.refresh();
  vscode.window.setStatusBarMessage(t('The Azure deployment {0} is forgotten.', deployment), 4000);
}

/** One of the deployments added, as the user picks it; none, said so, when none was added. */
async function pickAddedDeployment(s: Services): Promise<string | undefined> {
  const added = (await s.catalogue.models()).filter((m: ModelRecord) => m.provider === 'azure' && m.org_id);
  if (added.length === 0) {
    void vscode.window.showInformationMessage(t('No Azure deployment was added.'));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    added.map((m) => ({ label: m.model, description: m.description, deployment: m.model })),
    { title: t('Remove Azure Deployment'), placeHolder: t('Which deployment should be forgotten?') },
  );
  return pick?.deployment;
}
