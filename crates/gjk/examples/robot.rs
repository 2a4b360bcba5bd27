//! The Franka Emika Panda arm at random joint angles: its links posed from the URDF's joint chain, checked for
//! self-collision and for collision with a table and objects on it, many configurations per second on every core
//! (`gjk::batch`), every answer checked against the brute force over the links' convex parts.
//!
//! `cargo run --release -p gjk --example robot [-- PATH/TO/franka_panda]` (default: the shared data folder beside
//! the checkout, `../shared/data/meshes/franka_panda`; the example says so and stops when it is absent).
//!
//! The URDF is read minimally: each `<joint>`'s parent, child, `<origin xyz rpy>` and `<axis xyz>`, each `<link>`'s
//! collision mesh. A link's collision mesh becomes a [`Compound`] (one convex hull per OBJ object).

use std::path::PathBuf;
use std::time::Instant;

use gjk::composite::Compound;
use gjk::math::{DQuat, DVec3, Iso};
use gjk::query;
use gjk::shape::{Ball, ConvexPolytope, Cuboid};

type Link = Compound<DVec3, ConvexPolytope<DVec3>>;

/// The arm: named links with their collision compounds, and the joints.
type Arm = (Vec<(String, Link)>, Vec<Joint>);

/// One revolute (or fixed) joint.
struct Joint {
    parent: String,
    child: String,
    origin: Iso<DVec3>,
    axis: DVec3,
    revolute: bool,
    /// The joint's range (`<limit lower upper>`).
    limits: (f64, f64),
}

/// The value of `name="…"` in the first `<tag …>` of `block`.
fn attr<'a>(block: &'a str, tag: &str, name: &str) -> Option<&'a str> {
    let start = block.find(&format!("<{tag}"))?;
    let element = &block[start..start + block[start..].find('>')?];
    let key = format!("{name}=\"");
    let at = element.find(&key)? + key.len();
    Some(&element[at..at + element[at..].find('"')?])
}

fn numbers(s: Option<&str>) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (o, w) in out.iter_mut().zip(s.unwrap_or("").split_whitespace()) {
        *o = w.parse().unwrap_or(0.0);
    }
    out
}

/// Every `<tag …>…</tag>` block.
fn blocks<'a>(text: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag} "), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(s) = rest.find(&open) {
        let Some(e) = rest[s..].find(&close) else { break };
        out.push(&rest[s..s + e]);
        rest = &rest[s + e..];
    }
    out
}

fn parse_urdf(dir: &std::path::Path) -> Result<Arm, String> {
    let text = std::fs::read_to_string(dir.join("panda.urdf")).map_err(|e| format!("panda.urdf: {e}"))?;
    let mut links = Vec::new();
    for block in blocks(&text, "link") {
        let name = attr(block, "link", "name").unwrap_or("").to_string();
        let Some(collision) = block.find("<collision>").map(|i| &block[i..]) else { continue };
        let Some(file) = attr(collision, "mesh", "filename") else { continue };
        let path = dir.join(file.trim_start_matches("package://"));
        let obj = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        links.push((name, Compound::from_obj(&obj).map_err(|e| format!("{}: {e}", path.display()))?));
    }
    let joints = blocks(&text, "joint")
        .into_iter()
        .map(|b| {
            let [x, y, z] = numbers(attr(b, "origin", "xyz"));
            let [r, p, w] = numbers(attr(b, "origin", "rpy"));
            // URDF's roll-pitch-yaw: fixed axes x, then y, then z.
            let rotation = DQuat::from_rotation_z(w) * DQuat::from_rotation_y(p) * DQuat::from_rotation_x(r);
            Joint {
                parent: attr(b, "parent", "link").unwrap_or("").to_string(),
                child: attr(b, "child", "link").unwrap_or("").to_string(),
                origin: Iso::new(rotation, DVec3::new(x, y, z)),
                axis: DVec3::from_array(numbers(attr(b, "axis", "xyz"))),
                revolute: attr(b, "joint", "type") == Some("revolute"),
                limits: (
                    attr(b, "limit", "lower").and_then(|x| x.parse().ok()).unwrap_or(-std::f64::consts::PI),
                    attr(b, "limit", "upper").and_then(|x| x.parse().ok()).unwrap_or(std::f64::consts::PI),
                ),
            }
        })
        .collect();
    Ok((links, joints))
}

/// World poses of the links for joint angles `q` (one per revolute joint, in file order). Links without a mesh
/// (the flange, the grasp target) are posed too, since the chain passes through them.
fn forward(links: &[(String, Link)], joints: &[Joint], q: &[f64]) -> Vec<Iso<DVec3>> {
    let mut all: Vec<(&str, Iso<DVec3>)> = Vec::new();
    let mut angles = q.iter();
    for j in joints {
        let turn = if j.revolute {
            DQuat::from_axis_angle(j.axis.normalize(), *angles.next().unwrap_or(&0.0))
        } else {
            DQuat::IDENTITY
        };
        // The root (the base) is at the identity.
        let parent = all.iter().find(|(n, _)| *n == j.parent).map_or(Iso::identity(), |(_, p)| *p);
        all.push((j.child.as_str(), parent.compose(&j.origin).compose(&Iso::new(turn, DVec3::ZERO))));
    }
    links.iter().map(|(name, _)| all.iter().find(|(n, _)| n == name).map_or(Iso::identity(), |(_, p)| *p)).collect()
}

/// Hull-of-part brute force: any pair of parts intersecting.
fn brute(a: &Link, pa: &Iso<DVec3>, b: &Link, pb: &Iso<DVec3>) -> bool {
    a.parts().iter().any(|(s, p)| b.parts().iter().any(|(t, r)| gjk::intersects(s, &pa.compose(p), t, &pb.compose(r))))
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/meshes/franka_panda"));
    if !dir.join("panda.urdf").is_file() {
        println!("robot: no panda.urdf in {} — pass the franka_panda folder as the first argument", dir.display());
        return;
    }
    let (links, joints) = match parse_urdf(&dir) {
        Ok(x) => x,
        Err(e) => {
            println!("robot: {e}");
            return;
        }
    };
    let revolute = joints.iter().filter(|j| j.revolute).count();
    println!("robot: {} links with collision meshes, {} joints ({revolute} revolute)", links.len(), joints.len());
    // The world: a table in front of the base, its top level with the base's foot, and three balls on it.
    let table = Cuboid::new(DVec3::new(0.3, 0.4, 0.02)).unwrap();
    let table_pose = Iso::from_translation(DVec3::new(0.65, 0.0, -0.02));
    let ball = Ball::new(0.06).unwrap();
    let objects: Vec<Iso<DVec3>> = [(0.5, 0.2), (0.7, -0.15), (0.6, 0.0)]
        .iter()
        .map(|&(x, y)| Iso::from_translation(DVec3::new(x, y, 0.06)))
        .collect();
    // Random configurations, seeded (an xorshift: the example needs no dependency).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut uniform = move |lo: f64, hi: f64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        lo + (hi - lo) * (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let ranges: Vec<(f64, f64)> = joints.iter().filter(|j| j.revolute).map(|j| j.limits).collect();
    let configs: Vec<Vec<f64>> =
        (0..20_000).map(|_| ranges.iter().map(|&(lo, hi)| uniform(lo, hi)).collect()).collect();
    // Links joined by a joint (across links without a mesh) touch there by design, and so do siblings mounted on
    // one link (the fingers): those pairs are not checked.
    let index = |name: &str| links.iter().position(|(n, _)| n == name);
    let mut parent: Vec<Option<usize>> = vec![None; links.len()];
    let mut bridge: Vec<(String, String)> = Vec::new();
    for j in &joints {
        bridge.push((j.child.clone(), j.parent.clone()));
    }
    for (c, (name, _)) in links.iter().enumerate() {
        let mut up = name.clone();
        while let Some((_, p)) = bridge.iter().find(|(child, _)| *child == up) {
            up = p.clone();
            if let Some(i) = index(&up) {
                parent[c] = Some(i);
                break;
            }
        }
    }
    let pairs: Vec<(usize, usize)> = (0..links.len())
        .flat_map(|i| (i + 1..links.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            parent[i] != Some(j) && parent[j] != Some(i) && (parent[i] != parent[j] || parent[i].is_none())
        })
        .collect();
    println!("robot: {} link pairs checked for self-collision", pairs.len());
    // The pairs that already touch in the arm's usual home pose are in contact by design (a shell around a joint):
    // they are left out too, and named.
    let home = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785];
    let rest = forward(&links, &joints, &home[..revolute.min(7)]);
    let (pairs, by_design): (Vec<_>, Vec<_>) =
        pairs.into_iter().partition(|&(i, j)| !query::intersects(&links[i].1, &rest[i], &links[j].1, &rest[j]));
    for (i, j) in &by_design {
        println!("robot: {} and {} touch at rest: not checked", links[*i].0, links[*j].0);
    }
    // Per configuration: (self-colliding link pairs, links touching the table or an object).
    let check = |q: &Vec<f64>| -> (u32, u32) {
        let poses = forward(&links, &joints, q);
        let mut own = 0;
        for &(i, j) in &pairs {
            own += u32::from(query::intersects(&links[i].1, &poses[i], &links[j].1, &poses[j]));
        }
        let mut world = 0;
        // The base stands on the floor: the table and objects are checked against the moving links.
        for (l, p) in links.iter().zip(&poses).skip(1) {
            let hit = query::intersects(&l.1, p, &table, &table_pose)
                || objects.iter().any(|o| query::intersects(&l.1, p, &ball, o));
            world += u32::from(hit);
        }
        (own, world)
    };
    let mut answers = vec![(0u32, 0u32); configs.len()];
    let start = Instant::now();
    gjk::batch::map_into(&configs, &mut answers, check);
    let elapsed = start.elapsed().as_secs_f64();
    let colliding = answers.iter().filter(|a| a.0 > 0).count();
    let touching = answers.iter().filter(|a| a.1 > 0).count();
    println!(
        "robot: {} configurations in {:.3} s on every core: {:.0} configurations per second; {colliding} self-colliding, \
         {touching} touching the table or an object",
        configs.len(),
        elapsed,
        configs.len() as f64 / elapsed
    );
    // Every answer against the brute force over the links' hulls (first 2,000 configurations).
    let mut checked = 0;
    for (q, &(own, world)) in configs.iter().zip(&answers).take(2_000) {
        let poses = forward(&links, &joints, q);
        let b_own =
            pairs.iter().filter(|&&(i, j)| brute(&links[i].1, &poses[i], &links[j].1, &poses[j])).count() as u32;
        assert_eq!(own, b_own, "self-collision differs from the brute force at {q:?}");
        let b_world = links
            .iter()
            .zip(&poses)
            .skip(1)
            .filter(|(l, p)| {
                l.1.parts().iter().any(|(s, r)| {
                    let w = p.compose(r);
                    gjk::intersects(s, &w, &table, &table_pose)
                        || objects.iter().any(|o| gjk::intersects(s, &w, &ball, o))
                })
            })
            .count() as u32;
        assert_eq!(world, b_world, "world collision differs from the brute force at {q:?}");
        checked += 1;
    }
    println!("robot: {checked} configurations agree with the hull-of-part brute force");
}
