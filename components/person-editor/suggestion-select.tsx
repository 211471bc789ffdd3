"use client";
import { useTranslations } from "next-intl";
import { useId, useMemo, useState } from "react";
import type { GroupBase, OptionsOrGroups } from "react-select";
import CreatableSelect from "react-select/creatable";
import { rankMatches } from "@/components/ui/rank-matches";

interface Option {
  label: string;
  value: string;
}

interface SuggestionSelectProps {
  label: string;
  suggestions: readonly string[];
  value: string[];
  onChange: (value: string[]) => void;
  /** The longest value a user may add. */
  maxLength: number;
}

const toOption = (value: string): Option => ({ label: value, value });

function isOption(entry: Option | GroupBase<Option>): entry is Option {
  return "value" in entry;
}

/**
 * A searchable multi-select seeded with suggestions that also takes the user's own values
 * (react-select's creatable select), labelled by a visible label.
 */
export function SuggestionSelect({
  label,
  suggestions,
  value,
  onChange,
  maxLength,
}: SuggestionSelectProps) {
  const id = useId();
  const t = useTranslations("SuggestionSelect");
  const all = useMemo(() => suggestions.map(toOption), [suggestions]);
  const [input, setInput] = useState("");
  // Ranked here rather than filtered by react-select, which keeps the list's alphabetical order:
  // exact and prefix matches come first, and react-select focuses the first, so Enter picks it.
  const options = useMemo(() => rankMatches(all, input, (option) => option.label), [all, input]);

  function isValidNewOption(
    input: string,
    selected: readonly Option[],
    available: OptionsOrGroups<Option, GroupBase<Option>>,
  ): boolean {
    const candidate = input.trim().toLocaleLowerCase();
    if (!candidate || candidate.length > maxLength) return false;
    const known = [...selected, ...available.filter(isOption)];
    return !known.some((option) => option.value.toLocaleLowerCase() === candidate);
  }

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="space-y-1">
      <label
        id={`${id}-label`}
        htmlFor={`${id}-input`}
        className="block text-sm font-medium text-neutral-800"
      >
        {label}
      </label>
      <CreatableSelect<Option, true>
        instanceId={id}
        inputId={`${id}-input`}
        isMulti
        classNamePrefix="suggestion-select"
        options={options}
        filterOption={null}
        inputValue={input}
        onInputChange={(text) => setInput(text)}
        value={value.map(toOption)}
        onChange={(selected) => onChange(selected.map((option) => option.value.trim()))}
        isValidNewOption={isValidNewOption}
        formatCreateLabel={(input) => t("add", { value: input.trim() })}
        placeholder={t("placeholder")}
        noOptionsMessage={() => t("none")}
        theme={(theme) => ({
          ...theme,
          colors: {
            ...theme.colors,
            primary: "#743b74",
            primary75: "#8e4a8e",
            primary50: "#e6cfe6",
            primary25: "#f3e8f3",
            neutral50: "#6b6b6b",
          },
        })}
      />
    </div>
  );
}
