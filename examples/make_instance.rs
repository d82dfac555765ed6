//! Builds a CP instance JSON (`{"n","scale","k","dist"}`) from an Adult sample, for benchmarks:
//!
//! ```text
//! cargo run --release --example make_instance -- N SEED OUT.json [CSV] [HIERARCHY_DIR]
//! ```
//! Takes the first N data rows when SEED is 0, else N rows drawn with that seed; quasi-identifiers
//! age (numeric) and the 7 hierarchy attributes; k_i 80% 2 / 20% 3 (seeded); scale 1000.

use std::io::Write;

use optik::{Dataset, KSource, LoadOptions, Schema, SchemaSource};
use rand::seq::SliceRandom;
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: make_instance N SEED OUT.json [CSV] [HIERARCHY_DIR]");
        std::process::exit(2);
    }
    let n: usize = args[0].parse().expect("N");
    let seed: u64 = args[1].parse().expect("SEED");
    let out = &args[2];
    let csv = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "/work/shared/data/adult/adult.csv".to_string());
    let hdir = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "/work/shared/data/adult".to_string());
    let text = std::fs::read_to_string(&csv).expect("read CSV");
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    let mut rows: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
    if seed != 0 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        rows.shuffle(&mut rng);
    }
    rows.truncate(n);
    let dir = std::env::temp_dir().join(format!("make_instance_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sample = dir.join("sample.csv");
    let mut f = std::fs::File::create(&sample).expect("sample");
    writeln!(f, "{header}").unwrap();
    for r in &rows {
        writeln!(f, "{r}").unwrap();
    }
    drop(f);
    let mut schema = String::from("[columns.age]\nrole = \"quasi\"\nkind = \"numeric\"\n");
    for c in [
        "sex",
        "race",
        "marital-status",
        "education",
        "native-country",
        "workclass",
        "occupation",
    ] {
        schema.push_str(&format!(
            "[columns.{c}]\nrole = \"quasi\"\nkind = \"categorical\"\nhierarchy = \"{hdir}/adult_hierarchy_{c}.csv\"\n"
        ));
    }
    schema.push_str("[columns.salary-class]\nrole = \"sensitive\"\n");
    let schema_path = dir.join("schema.toml");
    std::fs::write(&schema_path, schema).expect("schema");
    let schema = Schema::load(&SchemaSource::File(schema_path.clone())).expect("schema parses");
    let ks = KSource::Distribution {
        dist: vec![(2, 0.8), (3, 0.2)],
        seed: seed.max(1),
    };
    let ds = Dataset::load(&sample, schema, &ks, &LoadOptions::default()).expect("load");
    let inst = ds
        .distance()
        .instance(ds.k().to_vec(), 1000.0)
        .expect("instance");
    std::fs::write(out, optik_models::export::to_json(&inst)).expect("write");
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("wrote {out}: n = {}", inst.n);
}
