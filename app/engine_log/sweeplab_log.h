/* sweeplab_log.h: log your engine's sweep queries for `sweeplab triage` (one header, C99 or C++11).
 *
 * One call a query writes one line of a sweeplab query log (docs/query-log.md, format
 * "sweeplab-query" version 1): the two shapes, the direction, your engine's name, version
 * and precision, and its answer.  Every float is written as a hex float with printf's %a,
 * so sweeplab reads back exactly the bits your engine held; a float is promoted to double
 * first, which is exact.  Each line is flushed as it is written: a log cut off by a crash
 * keeps every query before it.
 *
 *     #include "sweeplab_log.h"
 *     sweeplab_log log;
 *     sweeplab_log_open(&log, "queries.jsonl", "my-engine", "2.3.0", "float32");
 *     float center[3] = {0, 0, 5}, corners[9] = {-1, -1, 0, 1, -1, 0, 0, 1, 0}, motion[3] = {0, 0, -10};
 *     float point[3] = {0, 0, 0}, normal[3] = {0, 0, 1};
 *     sweeplab_shape ball = sweeplab_shape_f("sphere", center, 1, 1.0f);
 *     sweeplab_shape ground = sweeplab_shape_f("triangle", corners, 3, 0.0f);
 *     sweeplab_answer said = sweeplab_hit_f(0.4f, point, normal);  // or sweeplab_miss()
 *     sweeplab_log_query_f(&log, "frame 12", &ball, &ground, motion, &said);
 *     sweeplab_log_close(&log);
 *
 * Shapes (sweeplab's scene kinds; `points` holds count x 3 coordinates, `scalar` is the
 * radius or the offset, 0 where the kind has none):
 *
 *     kind          points                                   scalar
 *     "sphere"      1: center                                radius
 *     "capsule"     2: a, b (the segment's ends)             radius
 *     "point"       1: p                                     -
 *     "segment"     2: a, b                                  -
 *     "plane"       1: normal (points x with dot(n, x) = offset)   offset
 *     "triangle"    3: a, b, c                               -
 *     "polygon"     3 to 64 vertices, planar and convex      -
 *     "polyhedron"  1 to 64 points: their convex hull (a box: its 8 corners, in world space)
 *
 * The answer's normal is sweeplab's convention: a unit vector from the target towards the
 * moving shape (negate yours if it points the other way); t is the fraction of `direction`
 * travelled at the first contact, in [0, 1], not a time in seconds.
 *
 * An engine that does not cast to contact (Box3D: its linear slop) says where it stops,
 * on a hit or a miss: the surfaces between `offset` (length units: > 0 short of touching,
 * < 0 inside) and `offset + tolerance` (tolerance >= 0) apart.  Box3D, spheres whose radii
 * add to 0.01 or more: `said = sweeplab_with_contact(said, -0.005, 0.00125);`.  Without
 * it sweeplab judges the engine's t against touching.  Build answers with sweeplab_miss and
 * sweeplab_hit_f / _d: a positional initializer misses the fields added since.
 *
 * Every function returns 0, or -1 for bad input (an unknown kind, a wrong point count, a
 * precision other than "float32" or "float64", a contact tolerance below 0) or a failed write.  NaN and infinity are
 * written as %a prints them; sweeplab refuses that line, naming the field.  The radix
 * point of %a follows the C locale's LC_NUMERIC; a ',' is written as '.'.
 */
#ifndef SWEEPLAB_LOG_H
#define SWEEPLAB_LOG_H

#include <stdio.h>
#include <string.h>

#define SWEEPLAB_MAX_POINTS 64

typedef struct sweeplab_log {
    FILE *file;
    const char *engine, *version, *precision; /* kept as pointers: they must outlive the log */
} sweeplab_log;

typedef struct sweeplab_shape {
    const char *kind; /* NULL: a shape built from bad input, refused by sweeplab_log_query */
    int count;
    double points[SWEEPLAB_MAX_POINTS][3];
    double scalar;
} sweeplab_shape;

typedef struct sweeplab_answer {
    int hit, has_t, has_point, has_normal;
    double t, point[3], normal[3];
    int has_contact; /* 0: the engine casts to contact (no contact_offset, contact_tolerance written) */
    double contact_offset, contact_tolerance;
} sweeplab_answer;

/* Each kind: its name, the names of its single points (NULL: one list "vertices" of
 * `least` to SWEEPLAB_MAX_POINTS points), and the name of its scalar (NULL: none). */
typedef struct sweeplab_detail_kind {
    const char *name;
    const char *point_names[3];
    int least;
    const char *scalar_name;
} sweeplab_detail_kind;

static const sweeplab_detail_kind sweeplab_detail_kinds[] = {
    {"sphere", {"center", NULL, NULL}, 1, "radius"},
    {"capsule", {"a", "b", NULL}, 2, "radius"},
    {"point", {"p", NULL, NULL}, 1, NULL},
    {"segment", {"a", "b", NULL}, 2, NULL},
    {"plane", {"normal", NULL, NULL}, 1, "offset"},
    {"triangle", {"a", "b", "c"}, 3, NULL},
    {"polygon", {NULL, NULL, NULL}, 3, NULL},
    {"polyhedron", {NULL, NULL, NULL}, 1, NULL},
};

static inline const sweeplab_detail_kind *sweeplab_detail_kind_of(const char *name) {
    size_t i;
    for (i = 0; name != NULL && i < sizeof sweeplab_detail_kinds / sizeof sweeplab_detail_kinds[0]; ++i)
        if (strcmp(sweeplab_detail_kinds[i].name, name) == 0) return &sweeplab_detail_kinds[i];
    return NULL;
}

/* Whether `count` points are what `kind` takes: exactly its named points, or a list. */
static inline int sweeplab_detail_fits(const sweeplab_detail_kind *kind, int count) {
    if (kind == NULL) return 0;
    return kind->point_names[0] != NULL ? count == kind->least
                                        : kind->least <= count && count <= SWEEPLAB_MAX_POINTS;
}

/* A shape of `kind` from `count` points (x, y, z each) in double; kind NULL if they do not fit. */
static inline sweeplab_shape sweeplab_shape_d(const char *kind, const double *points, int count, double scalar) {
    sweeplab_shape shape;
    int i;
    memset(&shape, 0, sizeof shape);
    if (!sweeplab_detail_fits(sweeplab_detail_kind_of(kind), count)) return shape;
    shape.kind = kind;
    shape.count = count;
    for (i = 0; i < 3 * count; ++i) shape.points[i / 3][i % 3] = points[i];
    shape.scalar = scalar;
    return shape;
}

/* The same from floats: each promoted to double, exactly. */
static inline sweeplab_shape sweeplab_shape_f(const char *kind, const float *points, int count, float scalar) {
    double promoted[3 * SWEEPLAB_MAX_POINTS];
    int i;
    if (!sweeplab_detail_fits(sweeplab_detail_kind_of(kind), count)) return sweeplab_shape_d(NULL, NULL, 0, 0.0);
    for (i = 0; i < 3 * count; ++i) promoted[i] = points[i];
    return sweeplab_shape_d(kind, promoted, count, scalar);
}

static inline sweeplab_answer sweeplab_miss(void) {
    sweeplab_answer answer;
    memset(&answer, 0, sizeof answer);
    return answer;
}

/* A hit at fraction t; `point` and `normal` may be NULL where the engine gives none. */
static inline sweeplab_answer sweeplab_hit_d(double t, const double *point, const double *normal) {
    sweeplab_answer answer = sweeplab_miss();
    int i;
    answer.hit = answer.has_t = 1;
    answer.t = t;
    answer.has_point = point != NULL;
    answer.has_normal = normal != NULL;
    for (i = 0; i < 3; ++i) {
        answer.point[i] = point != NULL ? point[i] : 0.0;
        answer.normal[i] = normal != NULL ? normal[i] : 0.0;
    }
    return answer;
}

static inline sweeplab_answer sweeplab_hit_f(float t, const float *point, const float *normal) {
    double point_d[3], normal_d[3];
    int i;
    for (i = 0; i < 3; ++i) {
        point_d[i] = point != NULL ? point[i] : 0.0;
        normal_d[i] = normal != NULL ? normal[i] : 0.0;
    }
    return sweeplab_hit_d(t, point != NULL ? point_d : NULL, normal != NULL ? normal_d : NULL);
}

/* `answer` stopping with the surfaces between `offset` (> 0 short of touching, < 0 inside)
 * and `offset + tolerance` apart (tolerance >= 0, else the query is refused); a float
 * argument is promoted to double, exactly. */
static inline sweeplab_answer sweeplab_with_contact(sweeplab_answer answer, double offset, double tolerance) {
    answer.has_contact = 1;
    answer.contact_offset = offset;
    answer.contact_tolerance = tolerance;
    return answer;
}

/* Open (truncate) the log at `path`; precision is what the engine computes in. */
static inline int sweeplab_log_open(sweeplab_log *log, const char *path, const char *engine, const char *version,
                                    const char *precision) {
    log->file = NULL;
    if (engine == NULL || engine[0] == '\0' || version == NULL || precision == NULL
        || (strcmp(precision, "float32") != 0 && strcmp(precision, "float64") != 0))
        return -1;
    log->engine = engine;
    log->version = version;
    log->precision = precision;
    log->file = fopen(path, "w");
    return log->file != NULL ? 0 : -1;
}

static inline int sweeplab_log_close(sweeplab_log *log) {
    int status = log->file != NULL ? fclose(log->file) : -1;
    log->file = NULL;
    return status == 0 ? 0 : -1;
}

/* `x` as a JSON string holding its hex float ("0x1.8p-2"): %a, the radix point made '.'. */
static inline void sweeplab_detail_number(FILE *file, double x) {
    char text[64];
    char *c;
    snprintf(text, sizeof text, "%a", x);
    for (c = text; *c != '\0'; ++c)
        if (*c == ',') *c = '.';
    fprintf(file, "\"%s\"", text);
}

static inline void sweeplab_detail_vector(FILE *file, const double *v) {
    fputc('[', file);
    sweeplab_detail_number(file, v[0]);
    fputc(',', file);
    sweeplab_detail_number(file, v[1]);
    fputc(',', file);
    sweeplab_detail_number(file, v[2]);
    fputc(']', file);
}

/* `text` as a JSON string: quotes, backslashes and control characters escaped (UTF-8 kept). */
static inline void sweeplab_detail_string(FILE *file, const char *text) {
    const char *c;
    fputc('"', file);
    for (c = text; *c != '\0'; ++c) {
        int byte = *c & 0xff; /* (no cast: the header compiles cleanly under C++'s -Wold-style-cast) */
        if (byte == '"' || byte == '\\') fprintf(file, "\\%c", byte);
        else if (byte < 0x20) fprintf(file, "\\u00%c%c", "0123456789abcdef"[byte >> 4], "0123456789abcdef"[byte & 15]);
        else fputc(byte, file);
    }
    fputc('"', file);
}

static inline void sweeplab_detail_shape(FILE *file, const sweeplab_shape *shape) {
    const sweeplab_detail_kind *kind = sweeplab_detail_kind_of(shape->kind);
    int i;
    fprintf(file, "{\"kind\":\"%s\",\"params\":{", kind->name);
    if (kind->point_names[0] == NULL) {
        fputs("\"vertices\":[", file);
        for (i = 0; i < shape->count; ++i) {
            if (i > 0) fputc(',', file);
            sweeplab_detail_vector(file, shape->points[i]);
        }
        fputc(']', file);
    }
    for (i = 0; i < 3 && kind->point_names[i] != NULL; ++i) {
        fprintf(file, "%s\"%s\":", i > 0 ? "," : "", kind->point_names[i]);
        sweeplab_detail_vector(file, shape->points[i]);
    }
    if (kind->scalar_name != NULL) {
        fprintf(file, ",\"%s\":", kind->scalar_name);
        sweeplab_detail_number(file, shape->scalar);
    }
    fputs("}}", file);
}

/* One query: `id` (NULL: none) names it in triage's report; `answer` NULL: listed, not judged. */
static inline int sweeplab_log_query_d(sweeplab_log *log, const char *id, const sweeplab_shape *moving,
                                       const sweeplab_shape *target, const double *direction,
                                       const sweeplab_answer *answer) {
    FILE *file = log->file;
    if (file == NULL || !sweeplab_detail_fits(sweeplab_detail_kind_of(moving->kind), moving->count)
        || !sweeplab_detail_fits(sweeplab_detail_kind_of(target->kind), target->count)
        || (answer != NULL && answer->has_contact && answer->contact_tolerance < 0))
        return -1;
    fputs("{\"format\":\"sweeplab-query\",\"version\":1,", file);
    if (id != NULL) {
        fputs("\"id\":", file);
        sweeplab_detail_string(file, id);
        fputc(',', file);
    }
    fputs("\"engine\":{\"name\":", file);
    sweeplab_detail_string(file, log->engine);
    fputs(",\"version\":", file);
    sweeplab_detail_string(file, log->version);
    fprintf(file, ",\"precision\":\"%s\"},\"moving\":", log->precision);
    sweeplab_detail_shape(file, moving);
    fputs(",\"target\":", file);
    sweeplab_detail_shape(file, target);
    fputs(",\"direction\":", file);
    sweeplab_detail_vector(file, direction);
    if (answer != NULL) {
        fprintf(file, ",\"answer\":{\"hit\":%s", answer->hit ? "true" : "false");
        if (answer->hit && answer->has_t) {
            fputs(",\"t\":", file);
            sweeplab_detail_number(file, answer->t);
        }
        if (answer->hit && answer->has_point) {
            fputs(",\"point\":", file);
            sweeplab_detail_vector(file, answer->point);
        }
        if (answer->hit && answer->has_normal) {
            fputs(",\"normal\":", file);
            sweeplab_detail_vector(file, answer->normal);
        }
        if (answer->has_contact) {
            fputs(",\"contact_offset\":", file);
            sweeplab_detail_number(file, answer->contact_offset);
            fputs(",\"contact_tolerance\":", file);
            sweeplab_detail_number(file, answer->contact_tolerance);
        }
        fputc('}', file);
    }
    fputs("}\n", file);
    return fflush(file) == 0 && !ferror(file) ? 0 : -1;
}

static inline int sweeplab_log_query_f(sweeplab_log *log, const char *id, const sweeplab_shape *moving,
                                       const sweeplab_shape *target, const float *direction,
                                       const sweeplab_answer *answer) {
    double promoted[3];
    promoted[0] = direction[0];
    promoted[1] = direction[1];
    promoted[2] = direction[2];
    return sweeplab_log_query_d(log, id, moving, target, promoted, answer);
}

#endif /* SWEEPLAB_LOG_H */
