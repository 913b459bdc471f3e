#!/usr/bin/env python3
"""Writes core/recall/background.txt: the background prompts the relevance
floor is calibrated on (core/recall/calibrate.go). They are everyday requests
to a coding agent about no vault in particular, made from the templates
below; none may be in core/recall/testdata/prompts, which judges the floor.
Deterministic: run it again after changing a template."""
import json, os, random, re

here = os.path.dirname(os.path.abspath(__file__))
out_path = os.path.join(here, "..", "core", "recall", "background.txt")
judged = os.path.join(here, "..", "core", "recall", "testdata", "prompts", "unrelated.jsonl")

T = {
 'git': ["{g}", "{g} and then open a pull request", "can you {g}", "{g}, the branch is {br}"],
 'test': ["write unit tests for the {comp} {thing}", "the {comp} test is flaky on ci, find out why", "add a regression test for the {bug} bug", "make the {lang} tests run in parallel", "why does {testfile} fail only on ci"],
 'refactor': ["split {file} into smaller modules", "rename {id1} to {id2} everywhere", "extract the {comp} logic into its own {unit}", "remove the dead code in the {comp} {unit}", "replace the callbacks in {file} with async/await"],
 'feature': ["add {feat} to the {comp} {unit}", "implement {feat} for the {comp} page", "support {feat} in the {comp} api", "let users {act} from the {comp} screen"],
 'docs': ["document the {comp} {unit} in the readme", "add docstrings to the public functions in {file}", "write a changelog entry for {feat}", "update the api docs for the {comp} endpoint"],
 'ui': ["the {comp} modal doesn't close on escape", "make the {comp} table sortable by column", "the {comp} button is misaligned on mobile", "add a loading spinner to the {comp} form", "use the theme colors in the {comp} sidebar"],
 'infra': ["add a {ci} job that runs {task}", "the {svc} container keeps restarting", "set up {svc} in docker compose for local dev", "bump {dep} to the latest version", "deploy the {comp} service to staging"],
 'db': ["add an index on {col} in the {tbl} table", "write a migration that adds {col} to {tbl}", "the {tbl} query is slow, can you look at the plan", "seed the {tbl} table with test data"],
 'q': ["what's the difference between {a} and {b} in {lang}", "when should i use {a} instead of {b}", "is {a} thread safe in {lang}", "how do i {act2} in {lang}"],
 'err': ["{err}", "getting {err} when i run {task}", "{err}\\nany idea?"],
}
V = {
 'g': ["commit these changes", "squash the last three commits", "cherry-pick the fix from main", "revert the merge commit", "push the tag", "create a release branch", "fetch and rebase", "amend the last commit message", "delete the stale remote branches", "stash my work and switch branches"],
 'br': ["feature/billing", "fix/login-redirect", "release-2.3", "dev"],
 'comp': ["billing", "checkout", "profile", "search", "settings", "notifications", "auth", "upload", "dashboard", "admin", "invoice", "cart", "onboarding", "reports", "chat"],
 'thing': ["service", "reducer", "hook", "handler", "parser", "validator", "client", "store", "component", "controller"],
 'unit': ["module", "package", "class", "component", "service", "helper"],
 'bug': ["off-by-one", "timezone", "double submit", "null avatar", "pagination", "rounding", "race"],
 'lang': ["python", "typescript", "go", "rust", "java", "kotlin", "ruby", "javascript", "swift"],
 'testfile': ["test_orders.py", "cart.spec.ts", "handler_test.go", "UserServiceTest.java", "auth.test.js"],
 'file': ["utils.py", "app.tsx", "server.go", "main.rs", "routes.js", "models.py", "api.ts", "helpers.rb"],
 'id1': ["getUser", "fetchData", "cfg", "handleClick", "UserDTO", "tmp_list"],
 'id2': ["loadUser", "loadData", "config", "onClick", "UserView", "pending_items"],
 'feat': ["dark mode", "csv export", "pagination", "rate limiting", "retry with backoff", "a search filter", "email notifications", "two-factor login", "file previews", "undo", "drag and drop reordering", "infinite scroll", "webhooks", "an audit log"],
 'act': ["export their data", "reset their password", "invite teammates", "archive old items", "change their avatar"],
 'ci': ["github actions", "gitlab ci", "circleci", "jenkins"],
 'task': ["the linter", "the e2e tests", "npm run build", "cargo test", "pytest", "the migrations", "go vet"],
 'svc': ["redis", "postgres", "nginx", "rabbitmq", "elasticsearch", "mongo", "kafka"],
 'dep': ["react", "django", "express", "spring boot", "rails", "next.js", "tokio", "pydantic"],
 'col': ["created_at", "user_id", "email", "status", "deleted_at"],
 'tbl': ["orders", "users", "events", "payments", "sessions"],
 'a': ["a list", "a slice", "an interface", "a trait", "useEffect", "a goroutine", "a promise", "a dataclass", "a map", "a generator"],
 'b': ["a tuple", "an array", "a struct", "an abstract class", "useMemo", "a thread", "an observable", "a namedtuple", "an object", "a list comprehension"],
 'act2': ["read a file line by line", "parse json", "make an http request", "sort a map by value", "format a date", "debounce a function", "retry a failed request"],
 'err': ["TypeError: Cannot read properties of undefined (reading 'map')", "ModuleNotFoundError: No module named 'requests'", "panic: runtime error: index out of range [3] with length 3", "error[E0382]: borrow of moved value: `config`", "java.lang.NullPointerException at com.acme.OrderService.total(OrderService.java:42)", "Uncaught (in promise) Error: Network Error", "sqlalchemy.exc.OperationalError: could not connect to server", "npm ERR! code ERESOLVE unable to resolve dependency tree", "fatal: refusing to merge unrelated histories", "Segmentation fault (core dumped)", "django.db.utils.IntegrityError: UNIQUE constraint failed: users.email", "Error: Cannot find module './config'"],
}
SINGLES_PER_TEMPLATE, COMPOUNDS = 6, 100

random.seed(7)
single = set()
for kind, tpls in T.items():
    for t in tpls:
        keys = re.findall(r'\{(\w+)\}', t)
        for _ in range(SINGLES_PER_TEMPLATE):
            single.add(t.format(**{k: random.choice(V[k]) for k in keys}))
test = {json.loads(l)["prompt"] for l in open(judged) if l.strip()}
single = sorted(single - test)
random.seed(11)
comp = set()
while len(comp) < COMPOUNDS:
    parts = random.sample(single, random.choice([2, 3, 3, 4]))
    comp.add(". ".join(p[0].upper() + p[1:] for p in parts) + ".")
with open(out_path, "w") as f:
    f.write("# Background prompts for the relevance floor's calibration (calibrate.go):\n"
            "# everyday requests to a coding agent about no vault in particular, one per\n"
            f"# line (\\n for a line break): {len(single)} made from templates, and {COMPOUNDS}\n"
            "# longer Task-style ones that join two to four of them. Written by\n"
            "# scripts/background-prompts.py; none is in testdata/prompts, which judges\n"
            "# the calibration.\n")
    for p in single + sorted(comp):
        f.write(p + "\n")
print(len(single), "single,", COMPOUNDS, "compound")
