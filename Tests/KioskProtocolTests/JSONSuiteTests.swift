import KioskProtocol
import Testing

/// The JSONTestSuite idea (y_: must be read, n_: must be refused, i_: the RFC leaves it to the
/// reader), with this project's own cases for each category.
@Suite struct JSONSuiteTests {
    /// A document and how it is named in the results.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
        init(_ name: String, _ text: String) { self.name = name; bytes = Array(text.utf8) }
        init(_ name: String, bytes: [UInt8]) { self.name = name; self.bytes = bytes }
    }

    static let accepted: [Case] = [
        Case("y_array_empty", "[]"),
        Case("y_array_nested_empty", "[[[]]]"),
        Case("y_array_mixed", #"[null, true, false, 0, -1, 1.5, "s", [], {}]"#),
        Case("y_array_with_spaces", " [ 1 , 2 ] "),
        Case("y_array_with_all_white_space", "\t\r\n [\t1\r\n]\n"),
        Case("y_object_empty", "{}"),
        Case("y_object_empty_key", #"{"":0}"#),
        Case("y_object_nested", #"{"a":{"b":{"c":[{"d":null}]}}}"#),
        Case("y_object_key_with_nul_escape", #"{"a":1,"a\u0000":2}"#),
        Case("y_object_same_key_in_different_objects", #"[{"a":1},{"a":2}]"#),
        Case("y_number_zero", "0"),
        Case("y_number_negative_zero", "[-0]"),
        Case("y_number_fraction_zero", "[-0.0]"),
        Case("y_number_exponent_capital", "[1E22]"),
        Case("y_number_exponent_plus", "[1e+2]"),
        Case("y_number_exponent_minus", "[1E-2]"),
        Case("y_number_exponent_zero_padded", "[1e007]"),
        Case("y_number_zero_with_exponent", "[0e1]"),
        Case("y_number_real_with_exponent", "[-1.0e-0]"),
        Case("y_number_long_mantissa", "[3.141592653589793238462643383279502884197]"),
        Case("y_number_largest_finite", "[1.7976931348623157e308]"),
        Case("y_number_smallest_subnormal", "[5e-324]"),
        Case("y_string_empty", #""""#),
        Case("y_string_all_short_escapes", #"["\"\\\/\b\f\n\r\t"]"#),
        Case("y_string_unicode_escapes", #"["\u0041\u00e9\u20ac\uFFFF"]"#),
        Case("y_string_surrogate_pair", #"["\uD834\uDD1E"]"#),
        Case("y_string_escaped_nul", #"["\u0000"]"#),
        Case("y_string_utf8_two_three_four_bytes", "[\"é€😀\"]"),
        Case("y_string_raw_del", "[\"\u{7F}\"]"),
        Case("y_string_line_separator", "[\"\u{2028}\u{2029}\"]"),
        Case("y_string_bom_inside", "[\"\u{FEFF}\"]"),
        Case("y_string_slash_unescaped", #"["a/b"]"#),
        Case("y_string_backslash_u_in_text", #"["\\u0041"]"#),
        Case("y_structure_lone_true", "true"),
        Case("y_structure_lone_null_with_space", " null "),
        Case("y_structure_lone_string", #""x""#),
        Case("y_structure_lone_number", "-12.5e3"),
        Case("y_structure_depth_16", String(repeating: "[", count: 16) + String(repeating: "]", count: 16)),
        Case("y_request_typical", #"{"id":1,"cmd":"update","label":"Flashing…","progress":0.5}"#),
    ]
    @Test(arguments: accepted) func yAccepted(_ c: Case) {
        guard let v = parsed(bytes: c.bytes) else { return }
        // What is read is written and read back the same.
        #expect(parsed(bytes: JSON.encodeBytes(v)) == v)
    }

    static let refused: [Case] = [
        Case("n_array_trailing_comma", "[1,]"),
        Case("n_array_leading_comma", "[,1]"),
        Case("n_array_double_comma", "[1,,2]"),
        Case("n_array_unclosed", "[1"),
        Case("n_array_unclosed_nested", "[[1]"),
        Case("n_array_extra_close", "[1]]"),
        Case("n_array_semicolon", "[1;2]"),
        Case("n_array_colon", #"["a":1]"#),
        Case("n_object_trailing_comma", #"{"a":1,}"#),
        Case("n_object_lone_comma", "{,}"),
        Case("n_object_key_without_value", #"{"a"}"#),
        Case("n_object_missing_value", #"{"a":}"#),
        Case("n_object_missing_key", "{:1}"),
        Case("n_object_single_quoted_key", "{'a':1}"),
        Case("n_object_unquoted_key", "{a:1}"),
        Case("n_object_number_key", "{1:1}"),
        Case("n_object_equals", #"{"a"=1}"#),
        Case("n_object_missing_comma", #"{"a":1 "b":2}"#),
        Case("n_object_extra_close", #"{"a":1}}"#),
        Case("n_object_duplicate_key", #"{"a":1,"a":2}"#),
        Case("n_number_leading_zero", "[01]"),
        Case("n_number_negative_leading_zero", "[-01]"),
        Case("n_number_minus_only", "[-]"),
        Case("n_number_double_minus", "[--1]"),
        Case("n_number_plus", "[+1]"),
        Case("n_number_leading_dot", "[.1]"),
        Case("n_number_trailing_dot", "[1.]"),
        Case("n_number_dot_exponent", "[1.e1]"),
        Case("n_number_empty_exponent", "[1e]"),
        Case("n_number_exponent_sign_only", "[1.0e+]"),
        Case("n_number_fraction_in_exponent", "[1e1.0]"),
        Case("n_number_hex", "[0x10]"),
        Case("n_number_octal_style", "[017]"),
        Case("n_number_nan", "[NaN]"),
        Case("n_number_infinity", "[Infinity]"),
        Case("n_number_negative_infinity", "[-Infinity]"),
        Case("n_number_space_inside", "[1 000]"),
        Case("n_number_roman_numeral", "[\u{2160}]"),
        Case("n_string_single_quotes", "['a']"),
        Case("n_string_unterminated", #"["abc]"#),
        Case("n_string_bad_escape", #"["a\x"]"#),
        Case("n_string_escaped_apostrophe", #"["\'"]"#),
        Case("n_string_short_unicode_escape", #"["\u12"]"#),
        Case("n_string_uppercase_U_escape", #"["\U0041"]"#),
        Case("n_string_raw_tab", "[\"a\tb\"]"),
        Case("n_string_raw_newline", "[\"a\nb\"]"),
        Case("n_string_raw_nul", "[\"a\u{0}b\"]"),
        Case("n_string_backslash_at_end", #"["\"#),
        Case("n_string_lone_high_surrogate_escape", #"["\uD800"]"#),
        Case("n_string_lone_low_surrogate_escape", #"["\uDFAA"]"#),
        Case("n_string_two_high_surrogate_escapes", #"["\uD800\uD800"]"#),
        Case("n_string_invalid_utf8_lone_continuation", bytes: [0x5B, 0x22, 0x80, 0x22, 0x5D]),
        Case("n_string_invalid_utf8_overlong_slash", bytes: [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]),
        Case("n_string_invalid_utf8_overlong_nul", bytes: [0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D]),
        Case("n_string_invalid_utf8_surrogate", bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]),
        Case("n_string_invalid_utf8_above_10FFFF", bytes: [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D]),
        Case("n_string_invalid_utf8_FE", bytes: [0x5B, 0x22, 0xFE, 0x22, 0x5D]),
        Case("n_string_invalid_utf8_truncated", bytes: [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D]),
        Case("n_string_latin1", bytes: [0x5B, 0x22, 0xE9, 0x22, 0x5D]),
        Case("n_structure_empty", ""),
        Case("n_structure_white_space_only", " \n "),
        Case("n_structure_bom", bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]),
        Case("n_structure_two_values", "[] []"),
        Case("n_structure_text_after", "[1]x"),
        Case("n_structure_nul_after", "[1]\u{0}"),
        Case("n_structure_comment_line", "[] // c"),
        Case("n_structure_comment_block", "/**/[]"),
        Case("n_structure_form_feed", "\u{0C}[]"),
        Case("n_structure_vertical_tab", "[1,\u{0B}2]"),
        Case("n_structure_nbsp", "[\u{A0}1]"),
        Case("n_structure_capitalized_true", "[True]"),
        Case("n_structure_truncated_null", "[nul]"),
        Case("n_structure_lone_close", "]"),
        Case("n_structure_angle_bracket", "<>"),
        Case("n_structure_depth_17", String(repeating: "[", count: 17) + String(repeating: "]", count: 17)),
        Case("n_structure_unclosed_deep", String(repeating: "[{\"a\":", count: 8)),
    ]
    @Test(arguments: refused) func nRefused(_ c: Case) {
        guard let e = refusal(bytes: c.bytes) else { return }
        #expect((0...c.bytes.count).contains(e.offset))
        #expect(!e.message.isEmpty)
    }

    /// What this reader does where RFC 8259 lets a reader choose.
    enum Outcome: Sendable { case reads(JSONValue), refuses(String) }
    struct Choice: Sendable, CustomTestStringConvertible {
        var name: String, bytes: [UInt8], outcome: Outcome
        var testDescription: String { name }
        init(_ name: String, _ text: String, _ outcome: Outcome) { self.init(name, bytes: Array(text.utf8), outcome) }
        init(_ name: String, bytes: [UInt8], _ outcome: Outcome) { self.name = name; self.bytes = bytes; self.outcome = outcome }
    }

    static let choices: [Choice] = [
        Choice("i_number_too_large", "[1e400]", .refuses("number out of range for a Double: 1e400")),
        Choice("i_number_too_large_negative", "[-1e400]", .refuses("number out of range for a Double: -1e400")),
        Choice("i_number_huge_exponent", "[1E99999999999999999999]", .refuses("number out of range for a Double: 1E99999999999999999999")),
        Choice("i_number_underflow_to_zero", "[1e-400]", .reads([0])),
        Choice("i_number_tiny_exponent", "[1E-99999999999999999999]", .reads([0])),
        Choice("i_number_more_digits_than_a_double", "[123456789012345678901234567890]", .reads([1.2345678901234568e29])),
        Choice("i_number_integer_above_2_53_rounded", "[9007199254740993]", .reads([9_007_199_254_740_992])),
        Choice("i_number_negative_zero_kept", "[-0]", .reads([.number(-0.0)])),
        Choice("i_string_noncharacter_escape", #"["\uFFFF\uFDD0"]"#, .reads(.array([.string(scalars(0xFFFF, 0xFDD0))]))),
        Choice("i_string_noncharacter_utf8", bytes: [0x5B, 0x22, 0xEF, 0xBF, 0xBE, 0x22, 0x5D], .reads(.array([.string(scalars(0xFFFE))]))),
        Choice("i_string_lone_surrogate_escape", #"["\uDFAA"]"#,
               .refuses(#"lone surrogate escape \uDFAA in a string (a low surrogate with no high one before it)"#)),
        Choice("i_string_reversed_surrogates", #"["\uDD1E\uD834"]"#,
               .refuses(#"lone surrogate escape \uDD1E in a string (a low surrogate with no high one before it)"#)),
        Choice("i_string_utf8_surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22],
               .refuses("invalid UTF-8 (a surrogate (U+D800–U+DFFF) encoded in UTF-8)")),
        Choice("i_string_overlong", bytes: [0x22, 0xC1, 0xBF, 0x22], .refuses("invalid UTF-8 (an overlong encoding)")),
        Choice("i_structure_bom", bytes: [0xEF, 0xBB, 0xBF, 0x5B, 0x5D], .refuses("a byte order mark (U+FEFF) before the value")),
        Choice("i_structure_top_level_scalar", "\"just a string\"", .reads("just a string")),
        Choice("i_structure_depth_17", String(repeating: "[", count: 17) + String(repeating: "]", count: 17),
               .refuses("nesting deeper than 16 (maxDepth)")),
        Choice("i_object_duplicate_key", #"{"a":1,"a":1}"#, .refuses("duplicate key \"a\"")),
        Choice("i_object_canonically_equivalent_keys", #"{"\u00e9":1,"e\u0301":2}"#,
               .reads(.object(JSONObject([("\u{E9}", 1), ("e\u{301}", 2)])))),
    ]
    @Test(arguments: choices) func iImplementationDefined(_ c: Choice) {
        switch c.outcome {
        case let .reads(expected):
            let v = parsed(bytes: c.bytes)
            #expect(v == expected)
            if case let .number(x)? = v?.array?.first, case let .number(y)? = expected.array?.first { #expect(x.sign == y.sign) }
        case let .refuses(message):
            #expect(refusal(bytes: c.bytes)?.message == message)
        }
    }
}
