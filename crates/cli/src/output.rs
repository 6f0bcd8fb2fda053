//! Records printed as `key: value` lines, one `; `-separated line, or one
//! JSON object.

use std::fmt::Write as _;

/// A value of a record.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// Nothing (text `-`, JSON `null`).
    Null,
    /// A list of strings (text: space-separated).
    List(Vec<String>),
    /// A nested object.
    Object(Record),
    /// A list of objects (text: each on one line, `, `-separated, values
    /// only).
    Records(Vec<Record>),
}

/// An ordered list of fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Record {
    fields: Vec<(&'static str, Value)>,
}

impl Record {
    /// An empty record.
    pub(crate) fn new() -> Record {
        Record::default()
    }

    /// Adds a field.
    pub(crate) fn push(&mut self, key: &'static str, value: Value) -> &mut Record {
        self.fields.push((key, value));
        self
    }

    /// Adds a string field.
    pub(crate) fn str(&mut self, key: &'static str, value: impl ToString) -> &mut Record {
        self.push(key, Value::Str(value.to_string()))
    }

    /// Adds an integer field.
    pub(crate) fn int(&mut self, key: &'static str, value: impl TryInto<i64>) -> &mut Record {
        let v = value.try_into().map_or(Value::Int(i64::MAX), Value::Int);
        self.push(key, v)
    }

    /// The record as JSON on one line.
    pub(crate) fn json(&self) -> String {
        let mut s = String::from("{");
        for (i, (k, v)) in self.fields.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{}: ", json_string(k));
            json_value(&mut s, v);
        }
        s.push('}');
        s
    }

    /// The record as `key: value` lines.
    pub(crate) fn lines(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.fields {
            let _ = writeln!(s, "{k}: {}", text_value(v));
        }
        s
    }

    /// The record on one line, `key: value` pairs separated by `; `.
    pub(crate) fn line(&self) -> String {
        let parts: Vec<String> = self
            .fields
            .iter()
            .map(|(k, v)| format!("{k}: {}", text_value(v)))
            .collect();
        parts.join("; ")
    }
}

fn text_value(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        Value::Int(n) => n.to_string(),
        Value::Null => "-".into(),
        Value::List(l) => l.join(" "),
        Value::Object(r) => r.line(),
        Value::Records(l) => l
            .iter()
            .map(|r| {
                r.fields
                    .iter()
                    .map(|(_, v)| text_value(v))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn json_value(s: &mut String, v: &Value) {
    match v {
        Value::Str(t) => s.push_str(&json_string(t)),
        Value::Int(n) => {
            let _ = write!(s, "{n}");
        }
        Value::Null => s.push_str("null"),
        Value::List(l) => {
            s.push('[');
            for (i, t) in l.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(&json_string(t));
            }
            s.push(']');
        }
        Value::Object(r) => s.push_str(&r.json()),
        Value::Records(l) => {
            s.push('[');
            for (i, r) in l.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(&r.json());
            }
            s.push(']');
        }
    }
}

/// A JSON string literal.
pub(crate) fn json_string(t: &str) -> String {
    let mut s = String::with_capacity(t.len() + 2);
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            '\r' => s.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let mut r = Record::new();
        r.str("value", "win")
            .int("nodes", 12u64)
            .push("best", Value::Null)
            .push("pv", Value::List(vec!["4".into(), "a\"b".into()]));
        assert_eq!(
            r.json(),
            r#"{"value": "win", "nodes": 12, "best": null, "pv": ["4", "a\"b"]}"#
        );
        assert_eq!(r.lines(), "value: win\nnodes: 12\nbest: -\npv: 4 a\"b\n");
        assert_eq!(r.line(), "value: win; nodes: 12; best: -; pv: 4 a\"b");
        assert_eq!(json_string("\u{1}\n"), "\"\\u0001\\n\"");
    }
}
