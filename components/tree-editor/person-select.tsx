"use client";
import { useId, useMemo, useState } from "react";
import Select, { type StylesConfig, type ThemeConfig } from "react-select";
import CreatableSelect from "react-select/creatable";
import { avatarUrl } from "@/lib/image-url";
import { simName } from "@/components/tree-canvas/labels";
import type { Person } from "@/lib/schemas/person";
import { matchPeople } from "./match-people";

interface PersonOption {
  value: string;
  label: string;
  avatar: string;
  /** The "Create a new Sim" entry react-select adds for the typed name. */
  __isNew__?: boolean;
}

const toOption = (person: Person): PersonOption => ({
  value: person._id,
  label: simName(person),
  avatar: avatarUrl(person.avatar),
});

const theme: ThemeConfig = (base) => ({
  ...base,
  colors: {
    ...base.colors,
    primary: "#743b74",
    primary75: "#8e4a8e",
    primary50: "#e6cfe6",
    primary25: "#f3e8f3",
  },
});

// Inside the modal <dialog> (the top layer) a menu portalled to <body> would be hidden, so the
// menu stays in place, fixed so that the dialog's scrolling does not clip it.
const styles: StylesConfig<PersonOption, boolean> = {
  menu: (base) => ({ ...base, zIndex: 60 }),
};

function OptionLabel({ option }: { option: PersonOption }) {
  if (option.__isNew__) return <span className="font-medium">{option.label}</span>;
  return (
    <span className="flex items-center gap-2">
      {/* eslint-disable-next-line @next/next/no-img-element -- 24px thumbnails in a list */}
      <img src={option.avatar} alt="" width={24} height={24} className="size-6 rounded-full" />
      <span>{option.label}</span>
    </span>
  );
}

interface BaseProps {
  label: string;
  people: readonly Person[];
  peopleById: ReadonlyMap<string, Person>;
}

function useOptions(people: readonly Person[]) {
  const [input, setInput] = useState("");
  const options = useMemo(() => matchPeople(people, input).map(toOption), [people, input]);
  return { options, input, setInput };
}

function Labelled({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={`${id}-input`} className="block text-sm font-medium text-neutral-800">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The picker's text for a typed name that no Sim has. */
export const createSimLabel = (name: string) => `Create a new Sim "${name.trim()}"`;

/**
 * One person: searchable, not clearable. With `onCreate`, a typed name that matches nobody is
 * offered as "Create a new Sim", which calls `onCreate` with it.
 */
export function PersonSelect({
  label,
  people,
  peopleById,
  value,
  onChange,
  onCreate,
}: BaseProps & {
  value: string | null;
  onChange: (personId: string) => void;
  onCreate?: (name: string) => void;
}) {
  const id = useId();
  const { options, input, setInput } = useOptions(people);
  const selected = value ? peopleById.get(value) : undefined;
  const props = {
    instanceId: id,
    inputId: `${id}-input`,
    isSearchable: true,
    isClearable: false,
    options,
    filterOption: null,
    inputValue: input,
    onInputChange: (text: string) => setInput(text),
    value: selected ? toOption(selected) : null,
    onChange: (option: PersonOption | null) => option && onChange(option.value),
    formatOptionLabel: (option: PersonOption) => <OptionLabel option={option} />,
    placeholder: "Search for a Sim…",
    menuPosition: "fixed" as const,
    theme,
    styles,
  };
  return (
    <Labelled id={id} label={label}>
      {onCreate ? (
        <CreatableSelect<PersonOption, false>
          {...props}
          onCreateOption={(name) => {
            setInput("");
            onCreate(name.trim());
          }}
          isValidNewOption={(text, _selected, shown) =>
            text.trim() !== "" &&
            !shown.some(
              (option) =>
                "value" in option &&
                option.label.toLocaleLowerCase() === text.trim().toLocaleLowerCase(),
            )
          }
          formatCreateLabel={createSimLabel}
          noOptionsMessage={() =>
            people.length === 0 ? "No Sims yet: type a name to create one" : "No Sims match"
          }
        />
      ) : (
        <Select<PersonOption, false> {...props} noOptionsMessage={() => "No Sims match"} />
      )}
    </Labelled>
  );
}

/** Several people (a partner row, parents). */
export function PeopleSelect({
  label,
  people,
  peopleById,
  value,
  onChange,
}: BaseProps & { value: readonly string[]; onChange: (personIds: string[]) => void }) {
  const id = useId();
  const { options, input, setInput } = useOptions(people);
  const selected = value.flatMap((personId) => {
    const person = peopleById.get(personId);
    return person ? [toOption(person)] : [];
  });
  return (
    <Labelled id={id} label={label}>
      <Select<PersonOption, true>
        instanceId={id}
        inputId={`${id}-input`}
        isMulti
        isSearchable
        options={options}
        filterOption={null}
        inputValue={input}
        onInputChange={(text) => setInput(text)}
        value={selected}
        onChange={(chosen) => onChange(chosen.map((option) => option.value))}
        formatOptionLabel={(option) => <OptionLabel option={option} />}
        placeholder="Search for Sims…"
        noOptionsMessage={() => "No Sims match"}
        menuPosition="fixed"
        theme={theme}
        styles={styles}
      />
    </Labelled>
  );
}
