"use client";
import Image from "next/image";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { avatarUrl } from "@/lib/image-url";
import { PARENT_TYPE_LABELS, simName, sortPeople } from "@/components/tree-canvas/labels";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/class-names";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { inputClasses, TextField } from "@/components/ui/text-field";
import { api, ApiRequestError } from "@/lib/client/api";
import type { Person } from "@/lib/schemas/person";
import { PARTNER_TYPE_LABELS } from "@/lib/tree/labels";
import {
  PARENT_TYPES,
  PARTNER_TYPES,
  type ParentType,
  type PartnerType,
  type TreeNode,
} from "@/lib/schemas/tree";
import type { NodePatch } from "@/lib/tree/reducers";
import { PeopleSelect, PersonSelect } from "./person-select";

export interface NodeEditorProps {
  /** The tree a Sim created from the person picker joins. */
  treeId: string;
  /** A Sim was created from the person picker (and is being set on the node). */
  onPersonCreated: (person: Person) => void;
  node: TreeNode;
  /** Everyone in the tree. */
  people: readonly Person[];
  peopleById: ReadonlyMap<string, Person>;
  /** Merges the patch into the node and saves the tree. */
  onSave: (patch: NodePatch) => void;
  /** Deletes the node and its children (already confirmed). */
  onDelete: () => void;
  onClose: () => void;
}

type View = "menu" | "person" | "partners" | "parents";

const ids = (refs: { _id: string }[]) => refs.map((ref) => ref._id);
const refs = (personIds: string[]) => personIds.map((_id) => ({ _id }));

function FormButtons({ onCancel }: { onCancel: () => void }) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit">Save</Button>
    </div>
  );
}

function SubForm({
  title,
  onSubmit,
  onCancel,
  children,
}: {
  title: string;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <form
      aria-labelledby={headingId}
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
      className="space-y-4"
    >
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold text-plum-900 outline-none"
      >
        {title}
      </h3>
      {children}
      <FormButtons onCancel={onCancel} />
    </form>
  );
}

export const PERSON_CREATE_ERROR = "Unknown error occurred creating person";

/** "Bella Goth" → first name "Bella", last name "Goth"; one word is a first name. */
function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = "", ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(" ") };
}

/**
 * A new Sim's names, inline in the person form (a <div>, as forms cannot nest): Enter in a name
 * creates the Sim rather than saving the node.
 */
function NewSimFields({
  initial,
  busy,
  error,
  onCreate,
  onCancel,
}: {
  initial: { firstName: string; lastName: string };
  busy: boolean;
  error: string | null;
  onCreate: (names: { firstName: string; lastName: string }) => void;
  onCancel: () => void;
}) {
  const headingId = useId();
  const [names, setNames] = useState(initial);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const create = () => onCreate(names);
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "Enter") {
      event.preventDefault();
      create();
    }
  };
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      className="space-y-3 rounded-md border border-plum-200 bg-plum-50/40 p-3"
    >
      <h4 id={headingId} className="text-sm font-semibold text-plum-900">
        New Sim
      </h4>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          ref={first}
          label="First Name"
          value={names.firstName}
          maxLength={100}
          onChange={(event) => setNames({ ...names, firstName: event.target.value })}
          onKeyDown={onKeyDown}
          disabled={busy}
          error={error}
        />
        <TextField
          label="Last Name"
          value={names.lastName}
          maxLength={100}
          onChange={(event) => setNames({ ...names, lastName: event.target.value })}
          onKeyDown={onKeyDown}
          disabled={busy}
        />
      </div>
      <div className="flex justify-end gap-3">
        <Button variant="ghost" size="sm" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button size="sm" busy={busy} onClick={create}>
          Create Sim
        </Button>
      </div>
    </div>
  );
}

function PersonForm({
  treeId,
  onPersonCreated,
  node,
  people,
  peopleById,
  onSave,
  onCancel,
}: Pick<NodeEditorProps, "treeId" | "onPersonCreated" | "node" | "people" | "peopleById"> & {
  onSave: (patch: NodePatch) => void;
  onCancel: () => void;
}) {
  const [personId, setPersonId] = useState<string | null>(node.person?._id ?? null);
  const [newSim, setNewSim] = useState<{ firstName: string; lastName: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const chosen = personId ? peopleById.get(personId) : undefined;

  // The new Sim joins the tree and is set on this node at once: no trip to People in Tree.
  async function createSim(names: { firstName: string; lastName: string }) {
    setCreating(true);
    setCreateError(null);
    try {
      const person = await api<Person>("/api/people", {
        method: "POST",
        body: { tree: treeId, ...names },
        fallback: PERSON_CREATE_ERROR,
        inline: true,
      });
      onPersonCreated(person);
      onSave({ person: { _id: person._id } });
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
      setCreating(false);
      setCreateError(error.text ?? PERSON_CREATE_ERROR);
    }
  }

  return (
    <SubForm
      title="Set Node Person"
      onCancel={onCancel}
      onSubmit={() => (personId ? onSave({ person: { _id: personId } }) : onCancel())}
    >
      <div className="flex items-center gap-4">
        <Image
          src={avatarUrl(chosen?.avatar)}
          alt={chosen ? `Avatar of ${simName(chosen)}` : "No Sim chosen"}
          width={80}
          height={80}
          unoptimized
          className="size-20 shrink-0 rounded-full bg-plum-100 object-cover"
        />
        <div className="min-w-0 flex-1">
          <PersonSelect
            label="Sim"
            people={people}
            peopleById={peopleById}
            value={personId}
            onChange={setPersonId}
            onCreate={(name) => void createSim(splitName(name))}
          />
        </div>
      </div>
      {newSim ? (
        <NewSimFields
          initial={newSim}
          busy={creating}
          error={createError}
          onCreate={(names) => void createSim(names)}
          onCancel={() => {
            setNewSim(null);
            setCreateError(null);
          }}
        />
      ) : (
        <div className="space-y-1">
          {createError && (
            <p role="alert" className="text-sm text-red-700">
              {createError}
            </p>
          )}
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setNewSim({ firstName: "", lastName: "" })}
          >
            Create a new Sim
          </Button>
        </div>
      )}
    </SubForm>
  );
}

interface PartnerRow {
  key: number;
  type: PartnerType;
  people: string[];
}

function PartnersForm({
  node,
  people,
  peopleById,
  onSave,
  onCancel,
}: Pick<NodeEditorProps, "node" | "people" | "peopleById"> & {
  onSave: (patch: NodePatch) => void;
  onCancel: () => void;
}) {
  const nextKey = useRef(node.partners.length);
  const [rows, setRows] = useState<PartnerRow[]>(() =>
    node.partners.map((row, key) => ({ key, type: row.type, people: ids(row.people) })),
  );
  const update = (key: number, change: Partial<PartnerRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <SubForm
      title="Set Node Partners"
      onCancel={onCancel}
      onSubmit={() =>
        onSave({
          partners: rows
            .filter((row) => row.people.length > 0)
            .map((row) => ({ type: row.type, people: refs(row.people) })),
        })
      }
    >
      {rows.length === 0 && <p className="text-sm text-neutral-600">No partners yet.</p>}
      <ol className="space-y-4">
        {rows.map((row, index) => (
          <li key={row.key}>
            <fieldset className="space-y-3 rounded-md border border-plum-100 p-3">
              <legend className="px-1 text-sm font-semibold text-neutral-800">
                Partner {index + 1}
              </legend>
              <LabelledSelect
                label="Type"
                value={row.type}
                options={PARTNER_TYPES}
                labels={PARTNER_TYPE_LABELS}
                onChange={(type) => update(row.key, { type })}
              />
              <PeopleSelect
                label="People"
                people={people}
                peopleById={peopleById}
                value={row.people}
                onChange={(personIds) => update(row.key, { people: personIds })}
              />
              <div className="flex justify-end">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
                >
                  Remove Partner {index + 1}
                </Button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <Button
        variant="secondary"
        onClick={() => {
          const key = nextKey.current++;
          setRows((current) => [...current, { key, type: "PARTNER", people: [] }]);
        }}
      >
        Add Partner
      </Button>
    </SubForm>
  );
}

/** A select with its visible label above it, offering `options` by their `labels`. */
function LabelledSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  return (
    <label className="block space-y-1">
      <span className="block text-sm font-medium text-neutral-800">{label}</span>
      <select
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
        className={inputClasses}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </label>
  );
}

function ParentsForm({
  node,
  people,
  peopleById,
  onSave,
  onCancel,
}: Pick<NodeEditorProps, "node" | "people" | "peopleById"> & {
  onSave: (patch: NodePatch) => void;
  onCancel: () => void;
}) {
  const [parentType, setParentType] = useState<ParentType>(node.parentType);
  const [parents, setParents] = useState(() => ids(node.parents));
  const [adoptive, setAdoptive] = useState(() => ids(node.adoptiveParents));
  return (
    <SubForm
      title="Set Node Parents"
      onCancel={onCancel}
      onSubmit={() =>
        onSave({ parentType, parents: refs(parents), adoptiveParents: refs(adoptive) })
      }
    >
      <LabelledSelect
        label="Conception"
        value={parentType}
        options={PARENT_TYPES}
        labels={PARENT_TYPE_LABELS}
        onChange={setParentType}
      />
      <PeopleSelect
        label="Biological Parents"
        people={people}
        peopleById={peopleById}
        value={parents}
        onChange={setParents}
      />
      <PeopleSelect
        label="Adoptive Parents"
        people={people}
        peopleById={peopleById}
        value={adoptive}
        onChange={setAdoptive}
      />
    </SubForm>
  );
}

function MenuSection({
  title,
  summary,
  action,
  onOpen,
  danger = false,
}: {
  title: string;
  summary: ReactNode;
  action: string;
  onOpen: () => void;
  danger?: boolean;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        "flex flex-wrap items-center justify-between gap-3 rounded-md border p-4",
        danger ? "border-red-200 bg-red-50" : "border-plum-100",
      )}
    >
      <div className="min-w-0">
        <h3
          id={headingId}
          className={cx("font-semibold", danger ? "text-red-800" : "text-plum-900")}
        >
          {title}
        </h3>
        <div className="text-sm text-neutral-700">{summary}</div>
      </div>
      <Button variant={danger ? "danger" : "secondary"} size="sm" onClick={onOpen}>
        {action}
      </Button>
    </section>
  );
}

function namesOf(personIds: string[], peopleById: ReadonlyMap<string, Person>): string {
  return personIds.map((id) => simName(peopleById.get(id))).join(", ");
}

/** The "Edit Node" overlay: SPEC.md section 2. Save or Cancel in a section returns to the menu. */
export function NodeEditor({
  treeId,
  onPersonCreated,
  node,
  people: unsorted,
  peopleById,
  onSave,
  onDelete,
  onClose,
}: NodeEditorProps) {
  // Sorted here, when a node is edited, rather than on the editor's way to its first paint.
  const people = useMemo(() => sortPeople(unsorted), [unsorted]);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [view, setView] = useState<View>("menu");
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const back = () => setView("menu");
  const save = (patch: NodePatch) => {
    onSave(patch);
    setView("menu");
  };
  const formProps = { node, people, peopleById, onSave: save, onCancel: back };
  const personFormProps = { ...formProps, treeId, onPersonCreated };
  const partnerCount = node.partners.reduce((count, row) => count + row.people.length, 0);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (confirming) return;
        if (view === "menu") onClose();
        else back();
      }}
      className="m-auto max-h-[90dvh] w-[min(40rem,calc(100vw-2rem))] overflow-y-auto rounded-lg bg-white p-6 text-neutral-900 shadow-xl backdrop:bg-black/50"
    >
      <div className="mb-5 flex items-center justify-between gap-4">
        <h2 id={titleId} className="text-xl font-bold text-plum-900">
          Edit Node
        </h2>
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>

      {view === "menu" && (
        <div className="space-y-3">
          <MenuSection
            title="Node Person"
            summary={node.person ? simName(peopleById.get(node.person._id)) : "No Sim yet"}
            action="Set Node Person"
            onOpen={() => setView("person")}
          />
          <MenuSection
            title="Partners"
            summary={
              partnerCount > 0
                ? node.partners
                    .map(
                      (row) =>
                        `${PARTNER_TYPE_LABELS[row.type]}: ${namesOf(ids(row.people), peopleById)}`,
                    )
                    .join("; ")
                : "No partners"
            }
            action="Set Node Partners"
            onOpen={() => setView("partners")}
          />
          <MenuSection
            title="Parents"
            summary={
              // A founder has no parents: no conception type to speak of (issue 15).
              node.parents.length === 0 && node.adoptiveParents.length === 0 ? (
                "No parents"
              ) : (
                <>
                  {PARENT_TYPE_LABELS[node.parentType]}
                  {node.parents.length > 0 && ` · ${namesOf(ids(node.parents), peopleById)}`}
                  {node.adoptiveParents.length > 0 &&
                    ` · adopted by ${namesOf(ids(node.adoptiveParents), peopleById)}`}
                </>
              )
            }
            action="Set Node Parents"
            onOpen={() => setView("parents")}
          />
          <MenuSection
            title="Danger Zone"
            summary="Deleting this node also deletes all of its children."
            action="Delete This Node"
            onOpen={() => setConfirming(true)}
            danger
          />
        </div>
      )}
      {view === "person" && <PersonForm {...personFormProps} />}
      {view === "partners" && <PartnersForm {...formProps} />}
      {view === "parents" && <ParentsForm {...formProps} />}

      <ConfirmDialog
        open={confirming}
        title="Are you sure you want to delete this node?"
        confirmLabel="Delete"
        tone="danger"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onDelete();
        }}
      >
        Its children, and all of their descendants, will be deleted too.
      </ConfirmDialog>
    </dialog>
  );
}
