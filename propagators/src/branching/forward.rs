//! [`forward_brancher!`](crate::forward_brancher): one way to write a brancher that wraps
//! another (counting, tracing, or choosing between branchers), so that a wrapper never drops an
//! event by forgetting to forward one of pumpkin's `Brancher` methods.

/// Implements pumpkin's `Brancher` for a wrapper by forwarding every method that the invocation
/// does not write out itself.
///
/// The block reads like an `impl Brancher` block (`Brancher` being pumpkin's trait, imported).
/// The wrapped brancher is named either by a field (`to inner;`) or, for an enum whose every
/// variant holds one brancher, by its variants (`to match Choice::A, Choice::B;`). The methods
/// written out (with their full signatures, as in an `impl Brancher` block) replace the
/// forwarding ones; they call the wrapped brancher themselves when they should.
///
/// ```
/// use optik_propagators::forward_brancher;
/// use optik_propagators::pumpkin_core::branching::{Brancher, SelectionContext};
/// use optik_propagators::pumpkin_core::predicates::Predicate;
///
/// /// Counts the decisions of a brancher.
/// #[derive(Debug)]
/// struct Decisions<B> {
///     inner: B,
///     count: u64,
/// }
///
/// forward_brancher! {
///     impl<B: Brancher> Brancher for Decisions<B> {
///         to inner;
///         fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
///             self.count += 1;
///             self.inner.next_decision(context)
///         }
///     }
/// }
/// ```
#[macro_export]
macro_rules! forward_brancher {
    // Entry: each variant of an enum holds the wrapped brancher.
    (
        impl $(<$($generic:ident: $bound:path),* $(,)?>)? $brancher:ident for $ty:ty {
            to match $($variant:path),+ $(,)?;
            $($methods:tt)*
        }
    ) => {
        $crate::forward_brancher!(
            @impl [$($($generic: $bound),*)?] $brancher [$ty] [match $($variant),+] $($methods)*
        );
    };
    // Entry: a field holds the wrapped brancher.
    (
        impl $(<$($generic:ident: $bound:path),* $(,)?>)? $brancher:ident for $ty:ty {
            to $field:ident;
            $($methods:tt)*
        }
    ) => {
        $crate::forward_brancher!(
            @impl [$($($generic: $bound),*)?] $brancher [$ty] [field $field] $($methods)*
        );
    };
    // The impl block: the methods written out, then every other method forwarded.
    (
        @impl [$($generics:tt)*] $brancher:ident [$ty:ty] $to:tt
        $(fn $name:ident ($($params:tt)*) $(-> $ret:ty)? $body:block)*
    ) => {
        impl<$($generics)*> $brancher for $ty {
            $(fn $name($($params)*) $(-> $ret)? $body)*

            $crate::forward_brancher!(@unless log_statistics [$($name)*] {
                fn log_statistics(
                    &self,
                    statistic_logger: $crate::pumpkin_core::statistics::StatisticLogger,
                ) {
                    $crate::forward_brancher!(@call $to self log_statistics(statistic_logger))
                }
            });
            $crate::forward_brancher!(@unless next_decision [$($name)*] {
                fn next_decision(
                    &mut self,
                    context: &mut $crate::pumpkin_core::branching::SelectionContext,
                ) -> Option<$crate::pumpkin_core::predicates::Predicate> {
                    $crate::forward_brancher!(@call $to self next_decision(context))
                }
            });
            $crate::forward_brancher!(@unless on_conflict [$($name)*] {
                fn on_conflict(&mut self) {
                    $crate::forward_brancher!(@call $to self on_conflict())
                }
            });
            $crate::forward_brancher!(@unless on_backtrack [$($name)*] {
                fn on_backtrack(&mut self) {
                    $crate::forward_brancher!(@call $to self on_backtrack())
                }
            });
            $crate::forward_brancher!(@unless on_solution [$($name)*] {
                fn on_solution(
                    &mut self,
                    solution: $crate::pumpkin_core::results::SolutionReference,
                ) {
                    $crate::forward_brancher!(@call $to self on_solution(solution))
                }
            });
            $crate::forward_brancher!(@unless on_unassign_integer [$($name)*] {
                fn on_unassign_integer(
                    &mut self,
                    variable: $crate::pumpkin_core::variables::DomainId,
                    value: i32,
                ) {
                    $crate::forward_brancher!(@call $to self on_unassign_integer(variable, value))
                }
            });
            $crate::forward_brancher!(@unless on_appearance_in_conflict_predicate [$($name)*] {
                fn on_appearance_in_conflict_predicate(
                    &mut self,
                    predicate: $crate::pumpkin_core::predicates::Predicate,
                ) {
                    $crate::forward_brancher!(
                        @call $to self on_appearance_in_conflict_predicate(predicate)
                    )
                }
            });
            $crate::forward_brancher!(@unless on_restart [$($name)*] {
                fn on_restart(&mut self) {
                    $crate::forward_brancher!(@call $to self on_restart())
                }
            });
            $crate::forward_brancher!(@unless synchronise [$($name)*] {
                fn synchronise(
                    &mut self,
                    context: &mut $crate::pumpkin_core::branching::SelectionContext,
                ) {
                    $crate::forward_brancher!(@call $to self synchronise(context))
                }
            });
            $crate::forward_brancher!(@unless is_restart_pointless [$($name)*] {
                fn is_restart_pointless(&mut self) -> bool {
                    $crate::forward_brancher!(@call $to self is_restart_pointless())
                }
            });
            $crate::forward_brancher!(@unless subscribe_to_events [$($name)*] {
                fn subscribe_to_events(
                    &self,
                ) -> Vec<$crate::pumpkin_core::branching::BrancherEvent> {
                    $crate::forward_brancher!(@call $to self subscribe_to_events())
                }
            });
        }
    };
    // A call on the wrapped brancher.
    (@call [field $field:ident] $self_:tt $method:ident $args:tt) => {
        $self_.$field.$method $args
    };
    (@call [match $($variant:path),+] $self_:tt $method:ident $args:tt) => {
        match $self_ {
            $($variant(inner) => inner.$method $args,)+
        }
    };
    // `@unless method [written methods] { item }`: the item unless `method` is written out.
    // macro_rules cannot compare two identifiers, so each method name is a literal here.
    (@unless $method:ident [] { $($item:tt)* }) => { $($item)* };
    (@unless log_statistics [log_statistics $($rest:ident)*] $item:tt) => {};
    (@unless next_decision [next_decision $($rest:ident)*] $item:tt) => {};
    (@unless on_conflict [on_conflict $($rest:ident)*] $item:tt) => {};
    (@unless on_backtrack [on_backtrack $($rest:ident)*] $item:tt) => {};
    (@unless on_solution [on_solution $($rest:ident)*] $item:tt) => {};
    (@unless on_unassign_integer [on_unassign_integer $($rest:ident)*] $item:tt) => {};
    (
        @unless on_appearance_in_conflict_predicate
        [on_appearance_in_conflict_predicate $($rest:ident)*] $item:tt
    ) => {};
    (@unless on_restart [on_restart $($rest:ident)*] $item:tt) => {};
    (@unless synchronise [synchronise $($rest:ident)*] $item:tt) => {};
    (@unless is_restart_pointless [is_restart_pointless $($rest:ident)*] $item:tt) => {};
    (@unless subscribe_to_events [subscribe_to_events $($rest:ident)*] $item:tt) => {};
    (@unless $method:ident [$other:ident $($rest:ident)*] $item:tt) => {
        $crate::forward_brancher!(@unless $method [$($rest)*] $item);
    };
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use pumpkin_conflict_resolvers::resolvers::{AnalysisMode, ResolutionResolver};
    use pumpkin_core::branching::{Brancher, BrancherEvent, SelectionContext};
    use pumpkin_core::predicates::{Predicate, PredicateConstructor};
    use pumpkin_core::results::{SatisfactionResult, SolutionReference};
    use pumpkin_core::statistics::StatisticLogger;
    use pumpkin_core::termination::Indefinite;
    use pumpkin_core::variables::DomainId;
    use pumpkin_core::Solver;

    use crate::branching::{Counters, Counting};
    use crate::links::LinksConstructor;

    /// A brancher that records every call it receives (and assigns the first unfixed variable
    /// its lower bound).
    #[derive(Debug)]
    struct Recorder {
        vars: Vec<DomainId>,
        calls: Rc<RefCell<Vec<&'static str>>>,
    }

    impl Recorder {
        fn record(&self, call: &'static str) {
            self.calls.borrow_mut().push(call);
        }
    }

    impl Brancher for Recorder {
        fn log_statistics(&self, _: StatisticLogger) {
            self.record("log_statistics");
        }
        fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
            self.record("next_decision");
            let x = *self.vars.iter().find(|&&x| !context.is_integer_fixed(x))?;
            Some(x.equality_predicate(context.lower_bound(x)))
        }
        fn on_conflict(&mut self) {
            self.record("on_conflict");
        }
        fn on_backtrack(&mut self) {
            self.record("on_backtrack");
        }
        fn on_solution(&mut self, _: SolutionReference) {
            self.record("on_solution");
        }
        fn on_unassign_integer(&mut self, _: DomainId, _: i32) {
            self.record("on_unassign_integer");
        }
        fn on_appearance_in_conflict_predicate(&mut self, _: Predicate) {
            self.record("on_appearance_in_conflict_predicate");
        }
        fn on_restart(&mut self) {
            self.record("on_restart");
        }
        fn synchronise(&mut self, _: &mut SelectionContext) {
            self.record("synchronise");
        }
        fn is_restart_pointless(&mut self) -> bool {
            self.record("is_restart_pointless");
            false
        }
        fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
            self.record("subscribe_to_events");
            vec![
                BrancherEvent::Conflict,
                BrancherEvent::Backtrack,
                BrancherEvent::Solution,
                BrancherEvent::UnassignInteger,
                BrancherEvent::AppearanceInConflictPredicate,
                BrancherEvent::Restart,
                BrancherEvent::Synchronise,
            ]
        }
    }

    /// A choice between two recorders, forwarded by variant.
    #[derive(Debug)]
    enum Either {
        Plain(Recorder),
        Boxed(Box<Recorder>),
    }

    crate::forward_brancher! {
        impl Brancher for Either {
            to match Either::Plain, Either::Boxed;
        }
    }

    /// Calls every method that needs no search context.
    fn call_context_free_methods(brancher: &mut impl Brancher, x: DomainId) {
        brancher.log_statistics(StatisticLogger::default());
        brancher.on_conflict();
        brancher.on_backtrack();
        brancher.on_unassign_integer(x, 1);
        brancher.on_appearance_in_conflict_predicate(x.equality_predicate(1));
        brancher.on_restart();
        assert!(!brancher.is_restart_pointless(), "the recorder's answer");
        let _ = brancher.subscribe_to_events();
    }

    /// Three (unsatisfiable) or two (satisfiable) records pairwise kept apart in two classes:
    /// searches with `wrap(recorder)` and returns the recorder's calls.
    fn search<B: Brancher>(records: usize, wrap: impl Fn(Recorder) -> B) -> Vec<&'static str> {
        let mut solver = Solver::default();
        let vars: Vec<DomainId> = (0..records)
            .map(|_| solver.new_bounded_integer(1, 2))
            .collect();
        let cannot = (0..records as u32)
            .flat_map(|a| (a + 1..records as u32).map(move |b| (a, b)))
            .collect();
        let constraint_tag = solver.new_constraint_tag();
        let _ = solver.add_propagator(LinksConstructor {
            vars: vars.clone(),
            must: vec![],
            cannot,
            cmax: 2,
            constraint_tag,
        });
        let calls = Rc::new(RefCell::new(Vec::new()));
        let mut brancher = wrap(Recorder {
            vars,
            calls: calls.clone(),
        });
        let mut resolver = ResolutionResolver::new(AnalysisMode::OneUIP, false, false);
        let result = solver.satisfy(&mut brancher, &mut Indefinite, &mut resolver);
        assert_eq!(
            matches!(result, SatisfactionResult::Satisfiable(_)),
            records == 2
        );
        drop(result);
        calls.take()
    }

    #[test]
    fn forward_brancher_forwards_every_method_not_written_out() {
        let mut solver = Solver::default();
        let x = solver.new_bounded_integer(1, 2);
        let expected = [
            "log_statistics",
            "on_conflict",
            "on_backtrack",
            "on_unassign_integer",
            "on_appearance_in_conflict_predicate",
            "on_restart",
            "is_restart_pointless",
            "subscribe_to_events",
        ];
        let calls = Rc::new(RefCell::new(Vec::new()));
        let recorder = || Recorder {
            vars: vec![x],
            calls: calls.clone(),
        };
        call_context_free_methods(&mut Counting::new(recorder(), Counters::default()), x);
        assert_eq!(calls.take(), expected, "through a field");
        call_context_free_methods(&mut Either::Plain(recorder()), x);
        assert_eq!(calls.take(), expected, "through an enum variant");
        call_context_free_methods(&mut Either::Boxed(Box::new(recorder())), x);
        assert_eq!(calls.take(), expected, "through a boxed enum variant");
    }

    #[test]
    fn forwarded_branchers_see_the_same_search_as_the_bare_one() {
        for records in [2, 3] {
            let bare = search(records, |r| r);
            assert!(bare.contains(&"next_decision") && bare.contains(&"synchronise"));
            assert_eq!(bare.contains(&"on_solution"), records == 2);
            assert_eq!(bare.contains(&"on_conflict"), records == 3);
            let counters = Counters::default();
            let counted = search(records, |r| Counting::new(r, counters.clone()));
            assert_eq!(counted, bare, "{records} records, counted");
            assert!(counters.get().0 > 0, "the counting wrapper's own work");
            assert_eq!(search(records, Either::Plain), bare, "{records} records");
            assert_eq!(search(records, |r| Either::Boxed(Box::new(r))), bare);
        }
    }
}
