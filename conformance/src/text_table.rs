//! Plain-text tables for reports (left-aligned columns, two spaces apart).

/// Renders `rows` (the first is the header) as aligned text, one line per row.
pub fn render(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let start = out.len();
        for (i, (cell, &width)) in row.iter().zip(&widths).enumerate() {
            if i > 0 {
                out.push_str("  ");
            }
            // Padded by hand: `format!("{cell:<width$}")` panics for widths above 65,535.
            out.push_str(cell);
            out.extend(std::iter::repeat(' ').take(width - cell.chars().count()));
        }
        out.truncate(start + out[start..].trim_end().len());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns_are_aligned() {
        let rows = vec![
            vec!["a".to_string(), "bb".to_string()],
            vec!["ccc".to_string(), "d".to_string()],
        ];
        assert_eq!(super::render(&rows), "a    bb\nccc  d\n");
    }

    #[test]
    fn cells_wider_than_a_format_width_are_rendered_whole() {
        // Reported: a 65,536-character cell (a --group-by value) panicked in `format!`.
        for width in [65_535, 65_536, 200_000] {
            let wide = "é".repeat(width);
            let rows = vec![
                vec![wide.clone(), "x".to_string()],
                vec!["a".to_string(), "y".to_string()],
            ];
            let text = super::render(&rows);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], format!("{wide}  x"));
            assert_eq!(lines[1], format!("a{}  y", " ".repeat(width - 1)));
        }
    }
}
