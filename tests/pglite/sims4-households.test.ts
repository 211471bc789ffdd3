import { sims4HouseholdsSuite } from "../helpers/sims4-households-suite";

// issue 34: several households into one tree, pets, the household list (shared with tests/api)
sims4HouseholdsSuite();
