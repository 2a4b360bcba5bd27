//! Properties of GJK in ℝᴺ (gjk::nd) on random point sets: swapping A and B gives the same distance and flips
//! the normal; moving both shapes by the same translation changes nothing but the points.

use gjk::math::VecN;
use gjk::nd::{distance, PointSet};
use proptest::prelude::*;

const N: usize = 6;

fn points(max: usize) -> impl Strategy<Value = Vec<VecN<N>>> {
    prop::collection::vec(prop::array::uniform6(-1.0f64..1.0).prop_map(VecN), 1..max)
}

fn offset() -> impl Strategy<Value = VecN<N>> {
    prop::array::uniform6(-3.0f64..3.0).prop_map(VecN)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn swapping_the_shapes_keeps_the_distance(a in points(20), b in points(20), tb in offset()) {
        let (sa, sb) = (PointSet::new(a).unwrap(), PointSet::new(b).unwrap());
        let ab = distance(&sa, &VecN::ZERO, &sb, &tb);
        let ba = distance(&sb, &tb, &sa, &VecN::ZERO);
        prop_assert_eq!(ab.intersecting, ba.intersecting);
        prop_assert!((ab.distance - ba.distance).abs() <= 1e-12, "{} vs {}", ab.distance, ba.distance);
        if !ab.intersecting && ab.distance > 1e-6 {
            prop_assert!((ab.normal + ba.normal).length() <= 1e-9);
        }
    }

    #[test]
    fn a_common_translation_changes_only_the_points(
        a in points(20), b in points(20), tb in offset(), shift in prop::array::uniform6(-1e4f64..1e4).prop_map(VecN),
    ) {
        let (sa, sb) = (PointSet::new(a).unwrap(), PointSet::new(b).unwrap());
        let here = distance(&sa, &VecN::ZERO, &sb, &tb);
        let there = distance(&sa, &shift, &sb, &(tb + shift));
        prop_assert_eq!(here.intersecting, there.intersecting);
        // The pair frame subtracts the translations first: up to the rounding of tb + shift − shift.
        prop_assert!((here.distance - there.distance).abs() <= 1e-11, "{} vs {}", here.distance, there.distance);
        prop_assert!(((there.point_a - shift) - here.point_a).length() <= 1e-9);
    }
}
