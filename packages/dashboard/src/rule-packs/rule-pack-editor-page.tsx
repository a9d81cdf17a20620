import { type AuditProject, LoupeError, type RulePackInput, type StoredRulePack } from '@loupe/contract';
import { isLoupeError } from '@loupe/sdk';
import { useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { fieldErrorsOf } from '../api/api-error.ts';
import { useQuery } from '../api/use-query.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { FormField } from '../components/form-field.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PlanAwareError } from '../components/plan-aware-error.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { JsonEditor, type JsonEditorHandle } from './json-editor.tsx';
import { locateJson, type TextPosition } from './json-locations.ts';
import { newPackTemplate } from './new-pack-template.ts';
import { PackProblemList } from './pack-problem-list.tsx';
import { packProblems } from './pack-problems.ts';
import { RulePackPreviewPanel } from './rule-pack-preview-panel.tsx';
import { RulePackProjects } from './rule-pack-projects.tsx';
import '../schedules/automation.css';
import './rule-packs.css';

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Fields with a place on the screen: the two inputs, and the pack's own in the problem list. */
const isShownAtAField = (field: string) => field === 'name' || field === 'description' || field === 'pack' || field.startsWith('pack.');

/** `/w/:ws/rules/:packId` (and `/rules/new`): a pack's JSON with validation at the rule and line, saving, projects and a preview. */
export function RulePackEditorPage() {
  const { packId = 'new' } = useParams();
  const { api } = useWorkspace();
  const stored = useQuery(() => (packId === 'new' ? Promise.resolve(null) : api.getRulePack({ packId })), [api, packId]);
  const projects = useQuery(() => api.listAuditProjects({ limit: 100 }), [api]);
  if (stored.status === 'loading' || projects.status === 'loading') return <LoadingState label="Loading the rule pack" />;
  if (stored.status === 'failed') return <ErrorMessage error={stored.error} onRetry={stored.reload} />;
  if (projects.status === 'failed') return <ErrorMessage error={projects.error} onRetry={projects.reload} />;
  return <RulePackEditor key={packId} stored={stored.data} projects={projects.data} />;
}

function RulePackEditor({ stored, projects: initialProjects }: { stored: StoredRulePack | null; projects: AuditProject[] }) {
  const { api, can, workspace } = useWorkspace();
  const navigate = useNavigate();
  const writable = can('rules:write');
  const editorId = useId();
  const problemsId = useId();
  const editor = useRef<JsonEditorHandle>(null);
  const [saved, setSaved] = useState(stored);
  const [name, setName] = useState(stored?.name ?? '');
  const [description, setDescription] = useState(stored?.description ?? '');
  const [text, setText] = useState(() => pretty(stored?.pack ?? newPackTemplate));
  const [savedText, setSavedText] = useState(stored ? text : null);
  const [projects, setProjects] = useState(initialProjects);
  const [packError, setPackError] = useState<unknown>(null);
  const [formError, setFormError] = useState<unknown>(null);
  const [showSyntax, setShowSyntax] = useState(false);
  const [busy, setBusy] = useState<'validate' | 'save' | null>(null);
  // "Created." survives the move from /rules/new to the pack's own address.
  const arrival = useLocation().state as { notice?: string } | null;
  const [notice, setNotice] = useState(arrival?.notice ?? '');

  const parsed = useMemo(() => locateJson(text), [text]);
  const syntax = showSyntax && !parsed.ok ? { message: parsed.message, position: parsed.position } : null;
  const problems = useMemo(
    () => (parsed.ok ? packProblems(fieldErrorsOf(packError), parsed.value, parsed.positions) : []),
    [packError, parsed],
  );
  const problemLines = useMemo(() => {
    const lines = new Map<number, string[]>();
    if (syntax) lines.set(syntax.position.line, [syntax.message]);
    for (const problem of problems) {
      if (problem.position) lines.set(problem.position.line, [...(lines.get(problem.position.line) ?? []), ...problem.messages]);
    }
    return lines;
  }, [problems, syntax]);

  const goTo = (position: TextPosition) => editor.current?.goToLine(position.line, position.column);
  const readPack = (): RulePackInput | null => {
    if (parsed.ok) return parsed.value as RulePackInput;
    setShowSyntax(true);
    setNotice('');
    return null;
  };
  /** A failure of validate or save: the pack's messages go to the editor, the rest to the form. */
  const fail = (failure: unknown) => {
    const fields = Object.keys(fieldErrorsOf(failure));
    const aboutPack = fields.some((field) => field === 'pack' || field.startsWith('pack.'));
    setPackError(aboutPack ? failure : null);
    setFormError(aboutPack && fields.every((field) => field === 'pack' || field.startsWith('pack.')) ? null : failure);
  };

  const validate = async () => {
    const pack = readPack();
    if (!pack) return;
    setBusy('validate');
    setFormError(null);
    try {
      const validity = await api.validateRulePack({ body: { pack } });
      setPackError(null);
      setNotice(`The pack is valid: ${validity.ruleCount} rule${validity.ruleCount === 1 ? '' : 's'}.`);
    } catch (failure) {
      setNotice('');
      fail(failure);
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    const pack = readPack();
    if (!pack) return;
    setBusy('save');
    try {
      const body = { name, description: description === '' ? undefined : description, pack };
      const answer = saved ? await api.replaceRulePack({ packId: saved.id, body }) : await api.createRulePack({ body });
      setPackError(null);
      setFormError(null);
      setSaved(answer);
      setSavedText(text);
      setNotice(`Saved: ${answer.ruleCount} rule${answer.ruleCount === 1 ? '' : 's'}.`);
      if (!saved) navigate(`/w/${workspace.id}/rules/${answer.id}`, { replace: true, state: { notice: 'Created.' } });
    } catch (failure) {
      setNotice('');
      fail(failure);
    } finally {
      setBusy(null);
    }
  };

  // A taken name is a conflict, not a validation failure, but it is about the name field.
  const nameError = isLoupeError(formError, 'rule_pack_name_taken')
    ? new LoupeError('validation_failed', { details: { fieldErrors: { name: [formError.message] }, formErrors: [] } })
    : formError;
  const otherFormError =
    formError !== null &&
    !isLoupeError(formError, 'rule_pack_name_taken') &&
    !(isLoupeError(formError, 'validation_failed') && Object.keys(fieldErrorsOf(formError)).every(isShownAtAField));

  return (
    <>
      <nav aria-label="Breadcrumb" className="trail">
        <Link to={`/w/${workspace.id}/rules`}>Rules</Link>
      </nav>
      <PageHeader
        title={saved ? saved.name : 'New rule pack'}
        description={
          <>
            Declarative rules (schema <code>loupe.rules/v1</code>) that crawls run beside the built-in checks: CSS selectors, headers,
            status, text and metrics.
          </>
        }
      />
      <div className="stack">
        <section className="card pack-form" aria-label="The pack">
          {otherFormError && <PlanAwareError error={formError} feature="Custom rule packs" />}
          <div className="pack-fields">
            <FormField
              label="Name"
              name="name"
              value={name}
              readOnly={!writable}
              onChange={(event) => setName(event.target.value)}
              error={nameError}
              hint="Unique in the workspace."
            />
            <FormField
              label="Description"
              name="description"
              value={description}
              readOnly={!writable}
              onChange={(event) => setDescription(event.target.value)}
              error={formError}
            />
          </div>
          <div className="field">
            <label htmlFor={editorId}>Pack (JSON)</label>
            <JsonEditor
              id={editorId}
              ref={editor}
              value={text}
              readOnly={!writable}
              problemLines={problemLines}
              describedBy={syntax || problems.length > 0 ? problemsId : undefined}
              onChange={(next) => {
                setText(next);
                setNotice('');
                if (locateJson(next).ok) setShowSyntax(false);
              }}
            />
          </div>
          <PackProblemList id={problemsId} problems={problems} syntax={syntax} onGoTo={goTo} />
          {writable && (
            <div className="action-row">
              <button type="button" className="button" onClick={() => void validate()} disabled={busy !== null}>
                {busy === 'validate' ? 'Validating…' : 'Validate'}
              </button>
              <button type="button" className="button primary" onClick={() => void save()} disabled={busy !== null}>
                {busy === 'save' ? 'Saving…' : saved ? 'Save' : 'Create pack'}
              </button>
              <span role="status" className="muted">
                {notice}
              </span>
            </div>
          )}
        </section>
        <RulePackPreviewPanel
          packId={saved?.id}
          unchanged={savedText !== null && savedText === text}
          projects={projects}
          readPack={readPack}
          onPackProblems={(failure) => {
            if (failure === null) return;
            setPackError(failure);
            setNotice('');
          }}
        />
        {saved && (
          <RulePackProjects
            packId={saved.id}
            projects={projects}
            onChanged={(project) => setProjects((all) => all.map((each) => (each.id === project.id ? project : each)))}
          />
        )}
      </div>
    </>
  );
}
