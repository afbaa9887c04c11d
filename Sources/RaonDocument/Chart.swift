import RaonAnalytics

/// A chart, described once: what it shows and in which words. The SVG drawing (Markdown,
/// HTML) and the workbook's native chart are both drawn from it, each in its own medium;
/// a new chart is a new description and the drawing code is shared.
///
/// ```swift
/// let chart = Chart(file: "by_fee", title: "요금대별 (건수)", alt: "요금대별", content: .bars(bars))
/// ```
public struct Chart: Sendable {
  /// The file's name without folder or extension: the SVG is `charts/<file>.svg`.
  public var file: String
  /// The title drawn on the image.
  public var title: String
  /// What the document calls the image where it shows it (Markdown's alt text).
  public var alt: String
  /// Shown instead of the chart when it has nothing to draw.
  public var emptyText: String
  public var content: Content

  public init(file: String, title: String, alt: String, emptyText: String, content: Content) {
    self.file = file
    self.title = title
    self.alt = alt
    self.emptyText = emptyText
    self.content = content
  }

  /// `charts/<file>.svg`: where the image goes, relative to the document.
  public var path: String { "charts/\(file).svg" }

  public enum Content: Sendable {
    case bars(Bars)
    case lines(Lines)
  }

  /// The note under the chart (what it leaves out), if any.
  public var note: String? {
    if case .bars(let bars) = content { return bars.note }
    return nil
  }

  /// Counts by group: one bar per group, drawn horizontally on an image. A ranking
  /// (categories, districts) shows its largest groups and names the rest in a note; a
  /// band scale (fees, durations) shows every band in its order (the workbook draws it as
  /// columns).
  public struct Bars: Sendable {
    /// What the chart counts by (`분류별`), for a title of each medium's form.
    public var subject: String
    /// The set counted, when the chart is not about the whole catalog (`이번 주 운영`).
    public var set: String?
    /// Every group of the table the chart comes from, in the table's order.
    public var rows: [BandCount]
    /// The bars the image draws (the first groups of a ranking, or every band): each
    /// group's label, count, and the text after its bar (`1,234 (24.7%)`).
    public var bars: [Bar]
    /// How many groups a chart shows before the rest (the options' top N).
    public var keep: Int
    /// What a group is (`구`, `분류`), for the note naming the rest of a ranking.
    public var unit: String
    /// Whether the groups are bands in a fixed order (every one drawn) rather than a ranking.
    public var isScale: Bool
    /// What the image leaves out, said under it (`그 외 16개 구 121건은 …`).
    public var note: String?

    public init(
      subject: String, set: String?, rows: [BandCount], bars: [Bar], keep: Int, unit: String, isScale: Bool,
      note: String?
    ) {
      self.subject = subject
      self.set = set
      self.rows = rows
      self.bars = bars
      self.keep = keep
      self.unit = unit
      self.isScale = isScale
      self.note = note
    }
  }

  /// One bar.
  public struct Bar: Sendable, Hashable {
    public var label: String
    public var value: Int
    /// The text after the bar; the value with thousands separators when `nil`.
    public var valueText: String?

    public init(label: String, value: Int, valueText: String? = nil) {
      self.label = label
      self.value = value
      self.valueText = valueText
    }
  }

  /// Figures over time: one value per x label and series, series grouped in panels that
  /// each have their own axis.
  public struct Lines: Sendable {
    /// The x labels as the image reads them (a week's Monday: `9. 9.`).
    public var xLabels: [String]
    /// The x labels as codes (`2024-W37`), where a medium names the range by them.
    public var xCodes: [String]
    public var panels: [Panel]

    public init(xLabels: [String], xCodes: [String], panels: [Panel]) {
      self.xLabels = xLabels
      self.xCodes = xCodes
      self.panels = panels
    }
  }

  public struct Panel: Sendable {
    public var title: String
    public var series: [Series]

    public init(title: String, series: [Series]) {
      self.title = title
      self.series = series
    }
  }

  public struct Series: Sendable {
    public var name: String
    /// A value per x label; `nil` leaves a gap.
    public var values: [Int?]
    /// Of a much larger scale than the panel's other series (the catalog's size beside
    /// this week's figures): an image, with one axis per panel, leaves it out rather than
    /// flatten the others; a native chart, whose reader can hide a series, draws it.
    public var isWideScale: Bool

    public init(name: String, values: [Int?], isWideScale: Bool = false) {
      self.name = name
      self.values = values
      self.isWideScale = isWideScale
    }
  }
}
