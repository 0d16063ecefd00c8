//! sweeplab_log.rs: log your engine's sweep queries for `sweeplab triage` (one module, std only).
//!
//! One call a query writes one line of a sweeplab query log (docs/query-log.md, format
//! "sweeplab-query" version 1): the two shapes, the direction, your engine's name, version
//! and precision, and its answer.  Every float is written as a hex-float string, as C's `%a`
//! and Python's `float.hex` print it ("0x1.999999999999ap-4"), from the f64's bits (Rust's
//! formatting has no hex floats), so sweeplab reads back exactly the bits your engine held;
//! an f32 is promoted with `f64::from` (or `f64s`), which is exact.  Each line is flushed as
//! it is written: a log cut off by a crash keeps every query before it.
//!
//! ```ignore
//! #[path = "sweeplab_log.rs"] mod sweeplab_log;
//! use sweeplab_log::{f64s, Answer, Log, Precision, Shape};
//! let mut log = Log::create("queries.jsonl", "my-engine", "2.3.0", Precision::Float32)?;
//! let ball = Shape::Sphere { center: f64s([0.0, 0.0, 5.0]), radius: 1.0 };
//! let ground = Shape::Triangle { a: [-1.0, -1.0, 0.0], b: [1.0, -1.0, 0.0], c: [0.0, 1.0, 0.0] };
//! let said = Answer::hit(f64::from(0.4f32), Some([0.0, 0.0, 0.0]), Some([0.0, 0.0, 1.0])); // or Answer::miss()
//! log.query(Some("frame 12"), &ball, &ground, f64s([0.0, 0.0, -10.0]), Some(&said))?;
//! ```
//!
//! Shapes are sweeplab's scene kinds; a polyhedron is the convex hull of its vertices (a
//! box: its 8 corners, in world space), a polygon planar and convex, each at most 64
//! points (`MAX_POINTS`).  The answer's normal is sweeplab's convention: a unit vector
//! from the target towards the moving shape (negate yours if it points the other way);
//! `t` is the fraction of `direction` travelled at the first contact, in [0, 1], not a
//! time in seconds.  NaN and infinity are written as `%a` prints them ("nan", "inf");
//! sweeplab refuses that line, naming the field.
//!
//! An engine that does not cast to contact (Box3D: its linear slop) says where it stops,
//! on a hit or a miss: `said.with_contact(offset, tolerance)`, the surfaces between
//! `offset` (length units: > 0 short of touching, < 0 inside) and `offset + tolerance`
//! (tolerance >= 0) apart; Box3D, spheres whose radii add to 0.01 or more:
//! `with_contact(-0.005, 0.00125)`.  Without it sweeplab judges the engine's t against
//! touching.  Build answers with `Answer::miss` and `Answer::hit`: a struct literal misses
//! the fields added since.

#![allow(dead_code)]

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The most points a polygon or polyhedron takes (sweeplab's polyhedra hold at most 64).
pub const MAX_POINTS: usize = 64;

/// What the engine computes in: sets triage's default tolerances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    Float32,
    Float64,
}

/// A shape as sweeplab's scenes hold it (world coordinates).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Sphere { center: [f64; 3], radius: f64 },
    Capsule { a: [f64; 3], b: [f64; 3], radius: f64 },
    Point { p: [f64; 3] },
    Segment { a: [f64; 3], b: [f64; 3] },
    /// The points x with dot(normal, x) == offset.
    Plane { normal: [f64; 3], offset: f64 },
    Triangle { a: [f64; 3], b: [f64; 3], c: [f64; 3] },
    Polygon { vertices: Vec<[f64; 3]> },
    Polyhedron { vertices: Vec<[f64; 3]> },
}

/// The engine's answer: `hit`, and `t`, `point`, `normal` as far as it gives them, and
/// `contact` where it stops short of touching or inside it (None: at touching).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub hit: bool,
    pub t: Option<f64>,
    pub point: Option<[f64; 3]>,
    pub normal: Option<[f64; 3]>,
    pub contact: Option<Contact>,
}

/// Where an engine stops: the surfaces between `offset` (length units: > 0 short of
/// touching, < 0 inside) and `offset + tolerance` apart (`tolerance` >= 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    pub offset: f64,
    pub tolerance: f64,
}

impl Answer {
    pub fn miss() -> Answer {
        Answer { hit: false, t: None, point: None, normal: None, contact: None }
    }

    /// A hit at fraction `t` of the motion.
    pub fn hit(t: f64, point: Option<[f64; 3]>, normal: Option<[f64; 3]>) -> Answer {
        Answer { hit: true, t: Some(t), point, normal, contact: None }
    }

    /// This answer, the engine stopping with the surfaces between `offset` and
    /// `offset + tolerance` apart (a negative `tolerance`: the query is refused).
    pub fn with_contact(self, offset: f64, tolerance: f64) -> Answer {
        Answer { contact: Some(Contact { offset, tolerance }), ..self }
    }
}

/// Three f32 as f64, exactly.
pub fn f64s(v: [f32; 3]) -> [f64; 3] {
    [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]
}

/// `x` as a hex float, as C's `%a` and Python's `float.hex` write it: sign, "0x", the
/// leading digit (1, or 0 for zero and subnormals), the 52 fraction bits as 13 hex digits
/// with trailing zeros dropped, and the binary exponent ("p-4"; subnormals "p-1022").
pub fn hex(x: f64) -> String {
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { "-" } else { "" };
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0x7ff {
        return if fraction != 0 { "nan".to_string() } else { format!("{}inf", sign) };
    }
    let (lead, exponent) = match (biased, fraction) {
        (0, 0) => (0, 0),
        (0, _) => (0, -1022),
        _ => (1, biased - 1023),
    };
    let digits = format!("{:013x}", fraction);
    let digits = digits.trim_end_matches('0');
    let point = if digits.is_empty() { "" } else { "." };
    format!("{}0x{}{}{}p{:+}", sign, lead, point, digits, exponent)
}

/// The query log: one JSON line a query.
pub struct Log<W: Write> {
    out: W,
    engine: String,
    version: String,
    precision: Precision,
}

impl Log<BufWriter<File>> {
    /// Create (truncate) the log at `path`.
    pub fn create<P: AsRef<Path>>(path: P, engine: &str, version: &str, precision: Precision) -> io::Result<Self> {
        Log::new(BufWriter::new(File::create(path)?), engine, version, precision)
    }
}

impl<W: Write> Log<W> {
    /// A log written to `out`; the engine's name must not be empty.
    pub fn new(out: W, engine: &str, version: &str, precision: Precision) -> io::Result<Self> {
        if engine.is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "engine: the engine needs a name"));
        }
        Ok(Log { out, engine: engine.to_string(), version: version.to_string(), precision })
    }

    /// One query: `id` names it in triage's report; `answer` None: listed, not judged.
    /// `InvalidInput` for a polygon of fewer than 3 or a polyhedron of no points, or
    /// either of more than `MAX_POINTS`, or a contact tolerance below 0.
    pub fn query(&mut self, id: Option<&str>, moving: &Shape, target: &Shape, direction: [f64; 3],
                 answer: Option<&Answer>) -> io::Result<()> {
        if let Some(Contact { tolerance, .. }) = answer.and_then(|answer| answer.contact) {
            if tolerance < 0.0 {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, format!(
                    "answer: the contact tolerance must be >= 0, got {}", hex(tolerance))));
            }
        }
        let mut line = String::from("{\"format\":\"sweeplab-query\",\"version\":1,");
        if let Some(id) = id {
            line += &format!("\"id\":{},", string(id));
        }
        let precision = match self.precision {
            Precision::Float32 => "float32",
            Precision::Float64 => "float64",
        };
        line += &format!("\"engine\":{{\"name\":{},\"version\":{},\"precision\":\"{}\"}}",
                         string(&self.engine), string(&self.version), precision);
        line += &format!(",\"moving\":{},\"target\":{}", shape(moving, "moving")?, shape(target, "target")?);
        line += &format!(",\"direction\":{}", vector(&direction));
        if let Some(answer) = answer {
            line += &format!(",\"answer\":{{\"hit\":{}", answer.hit);
            if answer.hit {
                if let Some(t) = answer.t {
                    line += &format!(",\"t\":{}", number(t));
                }
                if let Some(point) = answer.point {
                    line += &format!(",\"point\":{}", vector(&point));
                }
                if let Some(normal) = answer.normal {
                    line += &format!(",\"normal\":{}", vector(&normal));
                }
            }
            if let Some(Contact { offset, tolerance }) = answer.contact {
                line += &format!(",\"contact_offset\":{},\"contact_tolerance\":{}", number(offset), number(tolerance));
            }
            line += "}";
        }
        line += "}\n";
        self.out.write_all(line.as_bytes())?;
        self.out.flush()
    }
}

fn number(x: f64) -> String {
    format!("\"{}\"", hex(x))
}

fn vector(v: &[f64; 3]) -> String {
    format!("[{},{},{}]", number(v[0]), number(v[1]), number(v[2]))
}

/// `text` as a JSON string: quotes, backslashes and control characters escaped.
fn string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                quoted.push('\\');
                quoted.push(c);
            }
            c if (c as u32) < 0x20 => quoted += &format!("\\u{:04x}", c as u32),
            c => quoted.push(c),
        }
    }
    quoted + "\""
}

fn shape(shape: &Shape, role: &str) -> io::Result<String> {
    let points = |name: &str, points: &[(&str, &[f64; 3])]| -> String {
        let fields: Vec<String> = points.iter().map(|(key, p)| format!("\"{}\":{}", key, vector(p))).collect();
        format!("{{\"kind\":\"{}\",\"params\":{{{}", name, fields.join(","))
    };
    let text = match shape {
        Shape::Sphere { center, radius } => points("sphere", &[("center", center)]) + ",\"radius\":" + &number(*radius),
        Shape::Capsule { a, b, radius } => points("capsule", &[("a", a), ("b", b)]) + ",\"radius\":" + &number(*radius),
        Shape::Point { p } => points("point", &[("p", p)]),
        Shape::Segment { a, b } => points("segment", &[("a", a), ("b", b)]),
        Shape::Plane { normal, offset } => points("plane", &[("normal", normal)]) + ",\"offset\":" + &number(*offset),
        Shape::Triangle { a, b, c } => points("triangle", &[("a", a), ("b", b), ("c", c)]),
        Shape::Polygon { vertices } => list("polygon", vertices, 3, role)?,
        Shape::Polyhedron { vertices } => list("polyhedron", vertices, 1, role)?,
    };
    Ok(text + "}}")
}

fn list(kind: &str, vertices: &[[f64; 3]], least: usize, role: &str) -> io::Result<String> {
    if vertices.len() < least || vertices.len() > MAX_POINTS {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!(
            "{}: a {} takes {} to {} vertices, got {}", role, kind, least, MAX_POINTS, vertices.len())));
    }
    let written: Vec<String> = vertices.iter().map(vector).collect();
    Ok(format!("{{\"kind\":\"{}\",\"params\":{{\"vertices\":[{}]", kind, written.join(",")))
}
