//! The module structure stays the one `docs/architecture.md` draws: the top-level modules of
//! `src/` depend one way, in the layers of [`LAYERS`], and no import cycle joins two files of
//! `src/` or of `models/src` (nor two top-level modules of `propagators/src`).
//!
//! The check reads the sources: every `.rs` file is a module (`a/mod.rs` and `a.rs` are `a`,
//! `a/b.rs` is `a::b`; an inline `mod tests { .. }` belongs to its file). An edge A → B is a path
//! in A's code — a `use` tree or an inline `a::b::c` path, comments and string literals left
//! out — that lands in B: `crate::b::..`, `super::..`, `self::..`, a child module's name, or
//! `crate::Item` where the crate root re-exports `Item` from B. Declaring a child (`mod b;`) is
//! not an edge. `scripts/module-cycles` is the same reading, as a script. A last test keeps
//! clap and command-line flags inside `src/cli/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers of `src/`, bottom first: a module may import only from layers below its own.
/// `error` and `settings` are the vocabulary every layer speaks; the anonymisation `pipeline`
/// and the tools sit side by side on the report layer and do not import one another.
const LAYERS: &[&[&str]] = &[
    &["error", "settings"],
    &["data"],
    &["partition"],
    &["release"],
    &["report"],
    &["pipeline", "assess", "bench", "experiments", "explain"],
    &["cli"],
];

/// A module: its path from the crate root (`[]` is the root).
type Module = Vec<String>;

/// A crate's modules and their code (comments and string contents removed).
struct Crate {
    modules: BTreeMap<Module, String>,
}

impl Crate {
    /// Reads every `.rs` file under `src` (the binary's `main.rs` aside).
    fn read(src: &Path) -> Crate {
        let mut modules = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut parts: Module = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().to_string())
                    .collect();
                if parts == ["main"] {
                    continue;
                }
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                    parts.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                modules.insert(parts, code_of(&text));
            }
        }
        Crate { modules }
    }

    /// A crate from (module path, source) pairs, e.g. `("data::k", "use crate::x;")`.
    fn from_sources(sources: &[(&str, &str)]) -> Crate {
        let modules = sources
            .iter()
            .map(|(m, text)| (module(m), code_of(text)))
            .collect();
        Crate { modules }
    }

    /// The items the crate root re-exports, by name, with the module they come from.
    fn reexports(&self) -> BTreeMap<String, Module> {
        let mut out = BTreeMap::new();
        let Some(root) = self.modules.get(&Vec::new()) else {
            return out;
        };
        let tokens = tokens(root);
        for (i, t) in tokens.iter().enumerate() {
            if t == "use" && i > 0 && tokens[i - 1] == "pub" {
                for path in use_paths(&tokens[i + 1..]) {
                    let mut segs = path;
                    if segs.first().is_some_and(|s| s == "crate") {
                        segs.remove(0);
                    }
                    if segs.len() >= 2 {
                        let item = segs.pop().unwrap();
                        out.insert(item, segs);
                    }
                }
            }
        }
        out
    }

    /// Imports between files: module → the modules its code names.
    fn file_edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let reexports = self.reexports();
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (here, code) in &self.modules {
            if here.is_empty() {
                continue; // the root declares and re-exports; re-exports are resolved above
            }
            for (inline, text) in inline_modules(code) {
                let mut scope = here.clone();
                scope.extend(inline);
                for path in paths_in(&text) {
                    let Some(target) = self.resolve(&path, &scope, &reexports) else {
                        continue;
                    };
                    if &target != here && !target.is_empty() && self.modules.contains_key(&target) {
                        edges.entry(here.clone()).or_default().insert(target);
                    }
                }
            }
        }
        edges
    }

    /// Imports between top-level modules (submodules folded into their top module).
    fn top_edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, targets) in self.file_edges() {
            for b in targets {
                if a[0] != b[0] {
                    edges.entry(a[0].clone()).or_default().insert(b[0].clone());
                }
            }
        }
        edges
    }

    /// The module a path written in module `here` lands in, or `None` (std, other crates).
    fn resolve(
        &self,
        path: &[String],
        here: &[String],
        reexports: &BTreeMap<String, Module>,
    ) -> Option<Module> {
        let first = path.first()?;
        let (mut target, rest): (Module, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (here.to_vec(), &path[1..]),
            "super" => {
                let mut base = here.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                (base, rest)
            }
            _ => {
                let mut child = here.to_vec();
                child.push(first.clone());
                if !self.modules.contains_key(&child) {
                    return None;
                }
                (here.to_vec(), path)
            }
        };
        for s in rest {
            let mut next = target.clone();
            next.push(s.clone());
            if self.modules.contains_key(&next) {
                target = next;
            } else {
                if target.is_empty() {
                    if let Some(m) = reexports.get(s) {
                        return Some(m.clone());
                    }
                }
                break;
            }
        }
        Some(target)
    }
}

/// `"a::b"` as a module path.
fn module(path: &str) -> Module {
    path.split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Source text without comments, with string and char literals emptied (a `//` or a
/// `crate::x` inside a string is no code).
fn code_of(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && matches!(next, Some('"' | '#')) && !ident_before(&b, i) {
            // Raw string r"..", r#".."#: skip to the closing quote and as many #.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('x', '\n', '\''), or a lifetime ('a) left as is.
            if next == Some('\\') {
                let mut j = i + 3;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str("' '");
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether an identifier character precedes position `i` (so `r"` there is no raw string).
fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The code's tokens: identifiers, `::`, and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(b[start..i].iter().collect());
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// The paths of a `use` tree starting at `tokens[0]` (up to its `;`): `a::{b, c::{d, e}}` is
/// `a::b`, `a::c::d`, `a::c::e`; globs and renames name the module they are in.
fn use_paths(tokens: &[String]) -> Vec<Vec<String>> {
    fn tree(tokens: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        loop {
            match tokens.get(*i).map(String::as_str) {
                None | Some(",") | Some("}") => break,
                Some("::") | Some("*") => *i += 1,
                Some("as") => *i += 2,
                Some("{") => {
                    // A group ends the tree: each member is a tree of its own.
                    *i += 1;
                    loop {
                        if tokens.get(*i).is_some_and(|t| t == "}") {
                            *i += 1;
                            return;
                        }
                        tree(tokens, i, &path, out);
                        match tokens.get(*i).map(String::as_str) {
                            Some(",") => *i += 1,
                            Some("}") => {
                                *i += 1;
                                return;
                            }
                            _ => return,
                        }
                    }
                }
                Some(t) => {
                    path.push(t.to_string());
                    *i += 1;
                }
            }
        }
        if !path.is_empty() {
            out.push(path);
        }
    }
    let end = tokens.iter().position(|t| t == ";").unwrap_or(tokens.len());
    let mut out = Vec::new();
    let mut i = 0;
    tree(&tokens[..end], &mut i, &[], &mut out);
    out
}

/// Every path of some code: the `use` trees, expanded, and the inline `a::b::c` paths.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "use" {
            out.extend(use_paths(&t[i + 1..]));
            while i < t.len() && t[i] != ";" {
                i += 1;
            }
            continue;
        }
        let starts_path = t[i]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
            && t.get(i + 1).is_some_and(|x| x == "::")
            && (i == 0 || t[i - 1] != "::");
        if starts_path {
            let mut path = vec![t[i].clone()];
            let mut j = i + 1;
            while j + 1 < t.len() && t[j] == "::" && is_ident(&t[j + 1]) {
                path.push(t[j + 1].clone());
                j += 2;
            }
            out.push(path);
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// A file's code split into its own text and its inline modules' (`mod tests { .. }`), each
/// with the inline module's name.
fn inline_modules(code: &str) -> Vec<(Option<String>, String)> {
    let b: Vec<char> = code.chars().collect();
    let mut parts = Vec::new();
    let mut own = String::new();
    let mut i = 0;
    while i < b.len() {
        if starts_word(&b, i, "mod") {
            let mut j = i + 3;
            while j < b.len() && b[j].is_whitespace() {
                j += 1;
            }
            let start = j;
            while j < b.len() && (b[j].is_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            let name: String = b[start..j].iter().collect();
            while j < b.len() && b[j].is_whitespace() {
                j += 1;
            }
            if !name.is_empty() && b.get(j) == Some(&'{') {
                let mut depth = 0;
                let open = j;
                while j < b.len() {
                    depth += i32::from(b[j] == '{') - i32::from(b[j] == '}');
                    if depth == 0 {
                        break;
                    }
                    j += 1;
                }
                parts.push((Some(name), b[open + 1..j.min(b.len())].iter().collect()));
                i = j + 1;
                continue;
            }
        }
        own.push(b[i]);
        i += 1;
    }
    let mut all = vec![(None, own)];
    all.extend(parts);
    all
}

/// Whether the word `w` starts at `i` (not inside a longer identifier).
fn starts_word(b: &[char], i: usize, w: &str) -> bool {
    let wc: Vec<char> = w.chars().collect();
    b.len() >= i + wc.len()
        && b[i..i + wc.len()] == wc[..]
        && !ident_before(b, i)
        && b.get(i + wc.len())
            .is_none_or(|c| !(c.is_alphanumeric() || *c == '_'))
}

/// The cycles of a graph: its strongly connected components of more than one node (Tarjan).
fn cycles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Search<'a, N> {
        edges: &'a BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on: BTreeSet<N>,
        out: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Search<'_, N> {
        fn visit(&mut self, v: &N) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            self.on.insert(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), l);
                } else if self.on.contains(w) {
                    let l = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on.remove(&w);
                    let done = &w == v;
                    comp.push(w);
                    if done {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut s = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            s.visit(v);
        }
    }
    s.out
}

/// Every way the top-level modules of `krate` break [`LAYERS`]: a module missing from them, or
/// an import of a module that is not in a layer below.
fn layering_violations(krate: &Crate) -> Vec<String> {
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut out = Vec::new();
    let tops: BTreeSet<&String> = krate.modules.keys().filter_map(|m| m.first()).collect();
    for m in tops {
        if layer(m).is_none() {
            out.push(format!("{m} is in no layer of LAYERS"));
        }
    }
    for (a, targets) in krate.top_edges() {
        for b in targets {
            match (layer(&a), layer(&b)) {
                (Some(la), Some(lb)) if lb < la => {}
                (Some(_), Some(_)) => out.push(format!(
                    "{a} imports {b}, which is not in a layer below {a}"
                )),
                _ => {}
            }
        }
    }
    out
}

/// The cycles between files, as lines `a -> b -> ...`.
fn file_cycles(krate: &Crate) -> Vec<String> {
    cycles(&krate.file_edges())
        .into_iter()
        .map(|c| {
            c.iter()
                .map(|m| m.join("::"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}

fn workspace(dir: &str) -> Crate {
    Crate::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
}

#[test]
fn top_level_modules_of_src_depend_one_way() {
    let krate = workspace("src");
    let bad = layering_violations(&krate);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The graph is read at all: the CLI imports every layer below it.
    let cli = &krate.top_edges()["cli"];
    for m in [
        "data",
        "partition",
        "release",
        "report",
        "pipeline",
        "assess",
    ] {
        assert!(cli.contains(m), "cli -> {m} not found: {cli:?}");
    }
}

#[test]
fn no_file_imports_itself_back_in_src_or_models() {
    for dir in ["src", "models/src"] {
        let c = file_cycles(&workspace(dir));
        assert!(
            c.is_empty(),
            "{dir}: cycles between files:\n{}",
            c.join("\n")
        );
    }
    let top = cycles(&workspace("propagators/src").top_edges());
    assert!(top.is_empty(), "propagators/src: {top:?}");
}

#[test]
fn only_the_cli_knows_clap_and_flags() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path == src.join("cli") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if tokens(&code_of(&text)).iter().any(|t| t == "clap") {
                found.push(format!("{}: uses clap", path.display()));
            }
            // A flag in code, a message or a comment: `--` then a letter.
            for (n, line) in text.lines().enumerate() {
                let b = line.as_bytes();
                if (0..b.len().saturating_sub(2))
                    .any(|i| &b[i..i + 2] == b"--" && b[i + 2].is_ascii_lowercase())
                {
                    found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "outside src/cli:\n{}", found.join("\n"));
}

#[test]
fn a_back_edge_breaks_the_layering() {
    let krate = Crate::from_sources(&[
        ("", "mod data; mod cli; pub use data::table::Table;"),
        ("data", "pub mod table;"),
        (
            "data::table",
            "use crate::cli::Args; // the back edge\npub struct Table;",
        ),
        (
            "cli",
            "use crate::Table;\nfn f() { crate::data::table::Table; }",
        ),
    ]);
    assert_eq!(
        layering_violations(&krate),
        ["data imports cli, which is not in a layer below data"]
    );
    assert_eq!(file_cycles(&krate), ["cli, data::table"]);
}

#[test]
fn paths_are_read_as_rust_reads_them() {
    let krate = Crate::from_sources(&[
        ("", "mod a; mod b; mod c;"),
        ("a", "mod x;\nuse self::x::{self as y, Z};\nconst S: &str = \"crate::c::not_code\";\n/* crate::c */ fn f() -> super::b::T { loop {} }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::b::{T, U};\n}"),
        ("a::x", "use super::super::c::{d::{E}, F};"),
        ("b", "pub struct T; fn g() { let _ = r#\"crate::c\"#; let _ = '\\''; }"),
        ("c", ""),
        ("c::d", "pub struct E;"),
    ]);
    let edges = krate.file_edges();
    let of = |m: &str| -> Vec<String> {
        edges
            .get(&module(m))
            .into_iter()
            .flatten()
            .map(|t| t.join("::"))
            .collect()
    };
    assert_eq!(of("a"), ["a::x", "b"]);
    assert_eq!(of("a::x"), ["c", "c::d"]);
    assert!(of("b").is_empty());
}
