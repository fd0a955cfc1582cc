import GraphEngine

/// Core Image's attributes of the distortion, tile, halftone, transition and stylize filters,
/// generated from the reference sheet (coreimage-filter-attributes.json) by
/// `scripts/coreimage-attribute-entries.py`: categories, and per input key its default (a number,
/// vector, colour or rectangle as numbers), hard minimum and slider range, so a test can hold the
/// catalogue to them.
enum CoreImageAttributeTable {
    /// One input's attributes.
    struct Input {
        /// The default: numbers, one for a scalar; nil for images and transforms.
        let value: [Double]?
        /// The hard minimum, slider minimum and slider maximum (nil where Core Image gives none).
        let minimum: Double?, sliderMinimum: Double?, sliderMaximum: Double?
    }

    /// Filter name → (categories, input key → attributes).
    static let filters: [String: (categories: [String], inputs: [String: Input])] = [
        "CIAffineTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTransform": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CIBarsSwipeTransition": (["CICategoryTransition", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTargetImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [3.141592653589793], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 6.283185307179586),
            "inputWidth": Input(value: [30.0], minimum: 2.0, sliderMinimum: 2.0, sliderMaximum: 300.0),
            "inputBarOffset": Input(value: [10.0], minimum: 1.0, sliderMinimum: 1.0, sliderMaximum: 100.0),
            "inputTime": Input(value: [0.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIBumpDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [300.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 600.0),
            "inputScale": Input(value: [0.5], minimum: nil, sliderMinimum: -1.0, sliderMaximum: 1.0),
        ]),
        "CIBumpDistortionLinear": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [300.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 600.0),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 6.283185307179586),
            "inputScale": Input(value: [0.5], minimum: -1.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CICMYKHalftone": (["CICategoryHalftoneEffect", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputWidth": Input(value: [6.0], minimum: -2.0, sliderMinimum: 2.0, sliderMaximum: 100.0),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputSharpness": Input(value: [0.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputGCR": Input(value: [1.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputUCR": Input(value: [0.5], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CICircleSplashDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [150.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1000.0),
        ]),
        "CICircularScreen": (["CICategoryHalftoneEffect", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputWidth": Input(value: [6.0], minimum: 1.0, sliderMinimum: 2.0, sliderMaximum: 50.0),
            "inputSharpness": Input(value: [0.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CICircularWrap": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [150.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 600.0),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
        ]),
        "CIClamp": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputExtent": Input(value: [0.0, 0.0, 0.0, 0.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CIColorAbsoluteDifference": (["CICategoryColorAdjustment", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputImage2": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CIComicEffect": (["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CIDisplacementDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputDisplacementImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputScale": Input(value: [50.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 200.0),
        ]),
        "CIDissolveTransition": (["CICategoryTransition", "CICategoryVideo", "CICategoryStillImage", "CICategoryInterlaced", "CICategoryNonSquarePixels", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTargetImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTime": Input(value: [0.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIDotScreen": (["CICategoryHalftoneEffect", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [6.0], minimum: 1.0, sliderMinimum: 2.0, sliderMaximum: 50.0),
            "inputSharpness": Input(value: [0.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIDroste": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputInsetPoint0": Input(value: [200.0, 200.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputInsetPoint1": Input(value: [400.0, 400.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputStrands": Input(value: [1.0], minimum: -10.0, sliderMinimum: -2.0, sliderMaximum: 2.0),
            "inputPeriodicity": Input(value: [1.0], minimum: 1.0, sliderMinimum: 1.0, sliderMaximum: 5.0),
            "inputRotation": Input(value: [0.0], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 6.283185307179586),
            "inputZoom": Input(value: [1.0], minimum: 0.01, sliderMinimum: 0.01, sliderMaximum: 5.0),
        ]),
        "CIEightfoldReflectedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CIFourfoldReflectedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
            "inputAcuteAngle": Input(value: [1.5707963267948966], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
        ]),
        "CIFourfoldRotatedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CIFourfoldTranslatedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
            "inputAcuteAngle": Input(value: [1.5707963267948966], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
        ]),
        "CIGlassDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTexture": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputScale": Input(value: [200.0], minimum: 0.0, sliderMinimum: 0.01, sliderMaximum: 500.0),
        ]),
        "CIGlassLozenge": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputPoint0": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputPoint1": Input(value: [350.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [100.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1000.0),
            "inputRefraction": Input(value: [1.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 5.0),
        ]),
        "CIGlideReflectedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CIHatchedScreen": (["CICategoryHalftoneEffect", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [6.0], minimum: 1.0, sliderMinimum: 2.0, sliderMaximum: 50.0),
            "inputSharpness": Input(value: [0.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIHeightFieldFromMask": (["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [10.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 300.0),
        ]),
        "CIHoleDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [150.0], minimum: 0.01, sliderMinimum: 0.01, sliderMaximum: 1000.0),
        ]),
        "CIKaleidoscope": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCount": Input(value: [6.0], minimum: 1.0, sliderMinimum: 1.0, sliderMaximum: 64.0),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
        ]),
        "CILightTunnel": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRotation": Input(value: [0.0], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 1.5707963267948966),
            "inputRadius": Input(value: [100.0], minimum: nil, sliderMinimum: 1.0, sliderMaximum: 500.0),
        ]),
        "CILineOverlay": (["CICategoryStillImage", "CICategoryVideo", "CICategoryStylize"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputNRNoiseLevel": Input(value: [0.07], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 0.1),
            "inputNRSharpness": Input(value: [0.71], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 2.0),
            "inputEdgeIntensity": Input(value: [1.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 200.0),
            "inputThreshold": Input(value: [0.1], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputContrast": Input(value: [50.0], minimum: 0.25, sliderMinimum: 0.25, sliderMaximum: 200.0),
        ]),
        "CILineScreen": (["CICategoryHalftoneEffect", "CICategoryVideo", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [6.0], minimum: 1.0, sliderMinimum: 2.0, sliderMaximum: 50.0),
            "inputSharpness": Input(value: [0.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIMaskToAlpha": (["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CIMix": (["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputBackgroundImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAmount": Input(value: [1.0], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIModTransition": (["CICategoryTransition", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTargetImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTime": Input(value: [0.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputAngle": Input(value: [2.0], minimum: nil, sliderMinimum: -6.283185307179586, sliderMaximum: 6.283185307179586),
            "inputRadius": Input(value: [150.0], minimum: 1.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
            "inputCompression": Input(value: [300.0], minimum: 1.0, sliderMinimum: 100.0, sliderMaximum: 800.0),
        ]),
        "CIOpTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputScale": Input(value: [2.8], minimum: 0.0, sliderMinimum: 0.1, sliderMaximum: 10.0),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [65.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 1000.0),
        ]),
        "CIParallelogramTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputAcuteAngle": Input(value: [1.5707963267948966], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CIPerspectiveTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTopLeft": Input(value: [118.0, 484.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTopRight": Input(value: [646.0, 507.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputBottomRight": Input(value: [548.0, 140.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputBottomLeft": Input(value: [155.0, 153.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CIPinchDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [300.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1000.0),
            "inputScale": Input(value: [0.5], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 2.0),
        ]),
        "CIShadedMaterial": (["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputShadingImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputScale": Input(value: [10.0], minimum: 0.0, sliderMinimum: 0.5, sliderMaximum: 200.0),
        ]),
        "CISixfoldReflectedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CISixfoldRotatedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CISpotColor": (["CICategoryStillImage", "CICategoryVideo", "CICategoryHighDynamicRange", "CICategoryStylize"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenterColor1": Input(value: [0.0784, 0.0627, 0.0706, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputReplacementColor1": Input(value: [0.4392, 0.1922, 0.1961, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCloseness1": Input(value: [0.22], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 0.5),
            "inputContrast1": Input(value: [0.98], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputCenterColor2": Input(value: [0.5255, 0.3059, 0.3451, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputReplacementColor2": Input(value: [0.9137, 0.5608, 0.5059, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCloseness2": Input(value: [0.15], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 0.5),
            "inputContrast2": Input(value: [0.98], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputCenterColor3": Input(value: [0.9216, 0.4549, 0.3333, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputReplacementColor3": Input(value: [0.9098, 0.7529, 0.6078, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCloseness3": Input(value: [0.5], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 0.5),
            "inputContrast3": Input(value: [0.99], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CISpotLight": (["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputLightPosition": Input(value: [400.0, 600.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputLightPointsAt": Input(value: [200.0, 200.0, 0.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputBrightness": Input(value: [3.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 10.0),
            "inputConcentration": Input(value: [0.1], minimum: 0.001, sliderMinimum: 0.001, sliderMaximum: 1.5),
            "inputColor": Input(value: [1.0, 1.0, 1.0, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CISwipeTransition": (["CICategoryTransition", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTargetImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputExtent": Input(value: [0.0, 0.0, 300.0, 300.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputColor": Input(value: [1.0, 1.0, 1.0, 1.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputTime": Input(value: [0.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [300.0], minimum: 0.1, sliderMinimum: 0.1, sliderMaximum: 800.0),
            "inputOpacity": Input(value: [0.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CIThermal": (["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
        "CITorusLensDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [160.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 500.0),
            "inputWidth": Input(value: [80.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 200.0),
            "inputRefraction": Input(value: [1.7], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 5.0),
        ]),
        "CITriangleKaleidoscope": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputPoint": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputSize": Input(value: [700.0], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 1000.0),
            "inputRotation": Input(value: [5.924285296593801], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 6.283185307179586),
            "inputDecay": Input(value: [0.85], minimum: nil, sliderMinimum: 0.0, sliderMaximum: 1.0),
        ]),
        "CITriangleTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CITwelvefoldReflectedTile": (["CICategoryTileEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputAngle": Input(value: [0.0], minimum: nil, sliderMinimum: -3.141592653589793, sliderMaximum: 3.141592653589793),
            "inputWidth": Input(value: [100.0], minimum: 0.0, sliderMinimum: 1.0, sliderMaximum: 200.0),
        ]),
        "CITwirlDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [300.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 500.0),
            "inputAngle": Input(value: [3.141592653589793], minimum: nil, sliderMinimum: -12.566370614359172, sliderMaximum: 12.566370614359172),
        ]),
        "CIVortexDistortion": (["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputCenter": Input(value: [150.0, 150.0], minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
            "inputRadius": Input(value: [300.0], minimum: 0.0, sliderMinimum: 0.0, sliderMaximum: 800.0),
            "inputAngle": Input(value: [56.548667764616276], minimum: nil, sliderMinimum: -94.24777960769379, sliderMaximum: 94.24777960769379),
        ]),
        "CIXRay": (["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels", "CICategoryStillImage"], [
            "inputImage": Input(value: nil, minimum: nil, sliderMinimum: nil, sliderMaximum: nil),
        ]),
    ]
}
