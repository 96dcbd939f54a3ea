//! The independent verifier of exact-cover solutions: it knows nothing of any solver, only
//! the instance and the chosen options.
//!
//! A solution (a list of option indices) is valid when every option exists and is chosen
//! once, every primary item is covered exactly once, and every secondary item is either
//! covered at most once, or covered by several options that all give it the same colour (an
//! occurrence without a colour is exclusive: it admits no other).

use super::knuth::Instance;

/// Why a list of options is not a solution.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// An option index that does not exist.
    #[error("option {option} does not exist (the instance has {options})")]
    NoSuchOption {
        /// The index.
        option: usize,
        /// How many options exist.
        options: usize,
    },
    /// The same option chosen twice.
    #[error("option {0} chosen twice")]
    Twice(usize),
    /// A primary item covered by no chosen option.
    #[error("primary item {0} is not covered")]
    Uncovered(String),
    /// A primary item covered more than once.
    #[error("primary item {0} is covered more than once")]
    PrimaryTwice(String),
    /// A secondary item covered more than once where one occurrence has no colour.
    #[error("secondary item {0} is covered more than once without a colour")]
    SecondaryTwice(String),
    /// A secondary item given two different colours.
    #[error("secondary item {item} has colours {first} and {second}")]
    Colours {
        /// The item.
        item: String,
        /// The colour it had first.
        first: String,
        /// The clashing colour.
        second: String,
    },
}

/// Checks that `solution` is an exact cover with colours of `instance`.
pub fn check(instance: &Instance, solution: &[usize]) -> Result<(), CheckError> {
    let options = instance.options.len();
    let mut chosen = vec![false; options];
    // Per item: how many chosen options contain it, and the colour of the first (0: none).
    let mut uses = vec![0u32; instance.items()];
    let mut colour = vec![0u32; instance.items()];
    let name = |i: usize| instance.names[i].clone();
    let colour_name = |c: u32| instance.colours[c as usize - 1].clone();
    for &o in solution {
        if o >= options {
            return Err(CheckError::NoSuchOption { option: o, options });
        }
        if chosen[o] {
            return Err(CheckError::Twice(o));
        }
        chosen[o] = true;
        for &(i, c) in &instance.options[o] {
            uses[i] += 1;
            if uses[i] == 1 {
                colour[i] = c;
                continue;
            }
            if i < instance.primary {
                return Err(CheckError::PrimaryTwice(name(i)));
            }
            if c == 0 || colour[i] == 0 {
                return Err(CheckError::SecondaryTwice(name(i)));
            }
            if c != colour[i] {
                return Err(CheckError::Colours {
                    item: name(i),
                    first: colour_name(colour[i]),
                    second: colour_name(c),
                });
            }
        }
    }
    if let Some(i) = uses[..instance.primary].iter().position(|&u| u == 0) {
        return Err(CheckError::Uncovered(name(i)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's XCC example (TAOCP 7.2.2.1 (49)): its one solution is options 1 and 3.
    const XCC: &str = "p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n";

    fn inst(text: &str) -> Instance {
        Instance::parse("t.dlx", text.as_bytes()).unwrap()
    }

    #[test]
    fn accepts_a_solution_in_any_order() {
        let i = inst(XCC);
        assert_eq!(check(&i, &[1, 3]), Ok(()));
        assert_eq!(check(&i, &[3, 1]), Ok(()));
    }

    #[test]
    fn every_rule() {
        let i = inst(XCC);
        assert_eq!(
            check(&i, &[1, 9]),
            Err(CheckError::NoSuchOption {
                option: 9,
                options: 5
            })
        );
        assert_eq!(check(&i, &[1, 1]), Err(CheckError::Twice(1)));
        assert_eq!(check(&i, &[1]), Err(CheckError::Uncovered("q".into())));
        assert_eq!(check(&i, &[]), Err(CheckError::Uncovered("p".into())));
        assert_eq!(
            check(&i, &[0, 1]),
            Err(CheckError::PrimaryTwice("p".into()))
        );
        // x:B then q x:A: a colour clash.
        assert_eq!(
            check(&i, &[2, 3, 4]),
            Err(CheckError::Colours {
                item: "x".into(),
                first: "B".into(),
                second: "A".into()
            })
        );
        // An uncoloured occurrence is exclusive, whichever comes first.
        let j = inst("p q | x\np x\nq x:A\nq\n");
        assert_eq!(
            check(&j, &[0, 1]),
            Err(CheckError::SecondaryTwice("x".into()))
        );
        assert_eq!(
            check(&j, &[1, 0]),
            Err(CheckError::SecondaryTwice("x".into()))
        );
        let k = inst("p q | x\np x\nq x\nq\n");
        assert_eq!(
            check(&k, &[0, 1]),
            Err(CheckError::SecondaryTwice("x".into()))
        );
        assert_eq!(check(&k, &[0, 2]), Ok(()));
        // The same colour twice is fine; a secondary item may stay uncovered.
        let m = inst("p q | x y\np x:A\nq x:A y\nq\n");
        assert_eq!(check(&m, &[0, 1]), Ok(()));
        assert_eq!(check(&m, &[0, 2]), Ok(()));
    }
}
