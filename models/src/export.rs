//! Instance exchange formats, so other solvers run on exactly the same problem: JSON
//! `{"n": .., "scale": .., "k": [..], "dist": [[..]]}` and a MiniZinc data file for
//! `models/minizinc/ki_anonymity.mzn`.

use crate::invalid_input::InvalidInput;
use crate::Instance;

/// JSON text of the instance (`{"n":..,"scale":..,"k":[..],"dist":[[..]]}`).
pub fn to_json(inst: &Instance) -> String {
    serde_json::to_string(inst).expect("an instance always serialises")
}

/// Parses and validates an instance from its JSON text.
pub fn from_json(text: &str) -> Result<Instance, InvalidInput> {
    let inst: Instance = serde_json::from_str(text)
        .map_err(|e| InvalidInput(format!("invalid instance JSON: {e}")))?;
    inst.validate()?;
    Ok(inst)
}

/// MiniZinc data: `n`, `scale` (float), `cmax` (⌊Σ 1/k_i⌋), `k` and `dist` (array2d).
pub fn to_dzn(inst: &Instance) -> String {
    let mut s = String::new();
    s.push_str(&format!("n = {};\n", inst.n));
    s.push_str(&format!("scale = {:?};\n", inst.scale));
    s.push_str(&format!("cmax = {};\n", inst.max_classes().max(1)));
    let k: Vec<String> = inst.k.iter().map(|v| v.to_string()).collect();
    s.push_str(&format!("k = [{}];\n", k.join(", ")));
    s.push_str("dist = [|");
    for (i, row) in inst.dist.iter().enumerate() {
        let r: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        s.push_str(&r.join(", "));
        s.push_str(if i + 1 == inst.n { "|];\n" } else { "\n  |" });
    }
    if inst.n == 0 {
        s.push_str("|];\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_dzn_shape() {
        let inst = Instance::new(
            10.0,
            vec![2, 2, 3],
            vec![vec![0, 1, 2], vec![1, 0, 3], vec![2, 3, 0]],
        )
        .unwrap();
        let j = to_json(&inst);
        assert_eq!(
            j,
            r#"{"n":3,"scale":10.0,"k":[2,2,3],"dist":[[0,1,2],[1,0,3],[2,3,0]]}"#
        );
        assert_eq!(from_json(&j).unwrap(), inst);
        let d = to_dzn(&inst);
        assert!(d.contains("n = 3;"));
        assert!(d.contains("cmax = 1;"));
        assert!(d.contains("dist = [|0, 1, 2\n  |1, 0, 3\n  |2, 3, 0|];"));
        assert!(from_json(r#"{"n":2,"scale":1.0,"k":[3,1],"dist":[[0,1],[1,0]]}"#).is_err());
    }
}
