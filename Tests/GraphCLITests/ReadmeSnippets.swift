import Foundation
import GraphEngine
import GraphRecipes
import Kernels

// The Swift snippets of README.md, verbatim between the markers (ReadmeTests checks they are the
// README's and runs them in a folder holding the files they name). Edit both together.
enum ReadmeSnippets {
    static func depthBlurSnippet() throws {
        // README snippet 1
        let context = Context()
        let photo = try Image(contentsOf: "portrait.jpg")                     // Examples/depth/portrait.jpg, say
        let disparity = try Image(contentsOf: "portrait.jpg", auxiliary: .disparity)   // its depth map, 1/m
        print(try DepthData(contentsOf: "portrait.jpg"))                     // disparity 144x192, relative, stored disparity 0.8765452...1.366211, ...
        let blurred = try photo.applyingFilter("CIDepthBlurEffect", parameters: [
            "inputDisparityImage": disparity,
            "inputAperture": 2.0,                                             // f/2: lower blurs more
            "inputFocusRect": Rect(x: 0.3, y: 0.4, width: 0.4, height: 0.3),  // normalised, origin lower left
        ])
        try context.write(blurred, to: "blurred.jpg")
        // end of README snippet 1
    }

    static func librarySnippet() throws {
        // README snippet 2
        let context = Context()                                   // long-lived, thread-safe
        let photo = try Image(contentsOf: "photo.jpg")            // decoded by libjpeg-turbo, EXIF-oriented
        let graded = try photo
            .applyingFilter("CISepiaTone", parameters: ["inputIntensity": 0.8])
            .applyingFilter("CIHueAdjust", parameters: ["inputAngle": 0.5])
            .applyingFilter("CIColorControls", parameters: ["inputContrast": 1.1])
        try context.write(graded, to: "graded.jpg")               // renders one fused program, writes atomically

        // Typed builders generated from the filter registry, as Core Image's CIFilterBuiltins.
        let blur = Filters.gaussianBlur()
        blur.inputImage = graded
        blur.radius = 4
        let soft = try blur.output()                              // blur.outputImage: nil instead of the error

        // A custom kernel (Core Image Kernel Language subset) with two image inputs.
        let darken = try Kernel(source: """
            kernel vec4 darken(__sample s, __sample d, float power) { return vec4(s.rgb * pow(d.r, power), s.a); }
            """)
        let mask = try Image(contentsOf: "mask.png")
        let darkened = try Image.applying(darken, arguments: [.image(photo), .image(mask), .number(2.2)])
        let pixels = try context.render(darkened, format: .rgba8)   // ImageBuffer, top row first
        // end of README snippet 2
        _ = (soft, pixels)
    }

    static func recipeSnippet(context: Context) throws {
        // README snippet 3
        // A recipe loaded as `graph run` loads it: `--set` overrides, errors naming the JSON path, warnings.
        let recipe = try LoadedRecipe(contentsOf: "look.json", overrides: ["sepia.inputIntensity=0.6"])
        for warning in recipe.warnings { print("warning: \(warning)") }
        let output = recipe.outputs[0]                                     // image name, file, format, write options, image
        let jpeg = try recipe.encodedData(of: output, context: context)    // in memory, the bytes `graph run` writes
        try recipe.writeOutputs(context: context)                          // every output, all or nothing
        // end of README snippet 3
        _ = jpeg
    }

    static func yuvSnippet(context: Context, nv12: [UInt8]) throws {
        // README snippet 4
        let frame = try YUVFrame(bytes: nv12, width: 1920, height: 1080, layout: .biPlanar, matrix: .bt709, range: .video)
        let rgba = try context.render(Image(yuv: frame), format: .rgba8)   // YCbCr->RGB inside the first program
        let bgra = try context.render(Image(yuv: frame), format: .bgra8)   // or BGRA, as displays and video want
        // end of README snippet 4
        _ = (rgba, bgra)
    }

    static func metadataSnippet(context: Context) throws {
        // README snippet 5
        let (photo, metadata, _) = try Image.decoding(path: "IMG_0001.jpg")
        try context.write(try photo.applyingFilter("CISepiaTone"), to: "sepia.jpg",
                          options: ImageWriteOptions(quality: 92, subsampling: .s444, metadata: metadata))  // EXIF, XMP, extended XMP
        // end of README snippet 5
    }

    static func depthSnippet(context: Context) throws {
        // README snippet 6
        let disparity = try Image(contentsOf: "IMG_0001.HEIC", auxiliary: .disparity)  // data image, 1/m
        let depth = try DepthData(contentsOf: "portrait.jpg")      // map + kind, range, accuracy, calibration
        let photo = try DepthPhoto(contentsOf: "portrait.jpg")     // headers only; photo.auxiliaryImages lists them
        let original = try Image(contentsOf: "portrait.jpg")
        let edited = original.cropped(to: Rect(x: 0, y: 0, width: 2000, height: 2000))
        let (auxiliary, _) = photo.auxiliaryImages(following: edited, from: original)  // the edit traced back to `original`
        try context.write(edited, to: "out.jpg", options: ImageWriteOptions(auxiliaryImages: auxiliary))  // maps cropped too
        // end of README snippet 6
        _ = (disparity, depth)
    }
}
