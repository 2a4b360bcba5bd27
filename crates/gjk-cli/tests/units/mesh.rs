//! Tests of `gjk_cli::mesh`'s parts (integration tests rather than unit tests: the library is then built once, not
//! a second time for its own tests).

use gjk_cli::mesh::*;
use std::path::Path;

#[test]
fn paths_are_judged_inside_the_folder_by_their_words_first() {
    let root = Path::new("/srv/meshes");
    assert!(lexically_inside(root, Path::new("a.obj")));
    assert!(lexically_inside(root, Path::new("parts/../a.obj")));
    assert!(lexically_inside(root, Path::new("/srv/meshes/a.obj")));
    assert!(!lexically_inside(root, Path::new("../a.obj")));
    assert!(!lexically_inside(root, Path::new("parts/../../a.obj")));
    assert!(!lexically_inside(root, Path::new("/etc/passwd.obj")));
    assert!(!lexically_inside(root, Path::new("/srv/meshes/../a.obj")));
}

#[test]
fn obj_vertices_are_read_and_faces_ignored() {
    let v = parse_obj("# cube\nv 0 0 0\nv 1 0 0\nvn 0 0 1\nv 0 1 0 1.0\nf 1 2 3\n").unwrap();
    assert_eq!(v, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
}

/// A bad token is reported by position, never quoted: a file's bytes (a secret read by mistake) must not reach
/// the output.
#[test]
fn obj_bad_number_is_an_error_that_does_not_quote_the_file() {
    let e = parse_obj("v 0 s3cr3t 0\n").unwrap_err();
    assert_eq!(e, "OBJ line 1: coordinate 2 is not a number");
}

#[test]
fn obj_faces_are_fan_triangulated_by_object() {
    let text = "o a\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2/5 3//2 4/1/1\ng b\nv 5 5 5\nf -1 1 2\n";
    let m = parse_obj_mesh(text).unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3], [4, 0, 1]]);
    assert_eq!(m.objects.len(), 2);
    assert_eq!(m.objects[0].triangles, 0..2);
    assert_eq!(m.objects[1].triangles, 2..3);
    assert_eq!(m.object_vertices(1), vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [5.0, 5.0, 5.0]]);
}

/// A bad face corner is reported by position, never quoted.
#[test]
fn obj_bad_face_is_an_error_that_does_not_quote_the_file() {
    let e = parse_obj_mesh("v 0 0 0\nf 1 s3cr3t 1\n").unwrap_err();
    assert_eq!(e, "OBJ line 2: corner 2 of the face is not a vertex index");
    let e = parse_obj_mesh("v 0 0 0\nf 1 1 7\n").unwrap_err();
    assert_eq!(e, "OBJ line 2: corner 3 of the face names a vertex out of range");
}

#[test]
fn stl_corners_are_welded() {
    let m = weld(vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [-0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ]);
    assert_eq!(m.vertices.len(), 4);
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn ascii_stl_vertices_are_read() {
    let s = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
    assert_eq!(parse_stl(s.as_bytes()).unwrap().len(), 3);
}

#[test]
fn binary_stl_vertices_are_read() {
    let mut b = vec![0u8; 80];
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&[0u8; 12]);
    for p in [[0f32, 0., 0.], [2., 0., 0.], [0., 3., 0.]] {
        for c in p {
            b.extend_from_slice(&c.to_le_bytes());
        }
    }
    b.extend_from_slice(&[0u8; 2]);
    assert_eq!(parse_stl(&b).unwrap(), vec![[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 3.0, 0.0]]);
}
