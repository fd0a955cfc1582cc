import GraphEngine
import GraphRecipes

/// Where a contact sheet's cells and labels go: `count` cells in rows of `columns`, left to
/// right from the top, each a picture of the photo's aspect with its label under it, `gap` pixels
/// around and between them. Rectangles are in the sheet's coordinates (origin lower left).
struct ContactSheetLayout: Equatable {
    let width: Int, height: Int
    let columns: Int, rows: Int
    /// The size of every picture.
    let pictureWidth: Int, pictureHeight: Int
    /// Font pixel size of the labels, and the height of the band under each picture they sit in.
    let labelScale: Int, labelHeight: Int
    let gap: Int

    /// A sheet `width` pixels wide for `count` pictures of `aspect` (width / height): about as
    /// many columns as rows (a few more for tall photos), labels scaled with the pictures.
    init(width: Int, count: Int, aspect: Double) throws {
        guard (200...20_000).contains(width) else { throw RecipeError("--width", "expected 200...20000 pixels, got \(width)") }
        guard count > 0, aspect.isFinite, aspect > 0 else { throw RecipeError("graph contact-sheet", "nothing to lay out") }
        columns = max(1, min(count, Int((Double(count) / aspect).squareRoot().rounded(.up))))
        rows = (count + columns - 1) / columns
        gap = max(4, width / 200)
        self.width = width
        pictureWidth = max(1, (width - gap * (columns + 1)) / columns)
        pictureHeight = max(1, Int((Double(pictureWidth) / aspect).rounded()))
        labelScale = max(1, min(4, pictureWidth / 150))
        labelHeight = (BitmapFont.lineHeight + 2) * labelScale
        height = rows * (pictureHeight + labelHeight) + gap * (rows + 1)
    }

    /// The picture rectangle of cell `index`.
    func picture(_ index: Int) -> Rect {
        let column = index % columns, row = index / columns
        let x = gap + column * (pictureWidth + gap)
        let top = height - gap - row * (pictureHeight + labelHeight + gap)
        return Rect(x: Double(x), y: Double(top - pictureHeight), width: Double(pictureWidth), height: Double(pictureHeight))
    }

    /// The largest number of label characters that fit under a picture.
    var labelCharacters: Int { max(1, (pictureWidth / labelScale + 1) / BitmapFont.advance) }

    /// Where the label of cell `index` (`characters` long) goes: centred under its picture, one
    /// font pixel below it.
    func label(_ index: Int, characters: Int) -> Rect {
        let picture = picture(index)
        let (w, h) = BitmapFont.size(of: String(repeating: " ", count: characters), scale: labelScale)
        let x = Int(picture.minX) + (pictureWidth - w) / 2
        let y = Int(picture.minY) - labelScale - h
        return Rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h))
    }
}
