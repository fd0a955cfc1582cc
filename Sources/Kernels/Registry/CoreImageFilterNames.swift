import GraphEngine

/// The names of Core Image's built-in filters (`CIFilter.filterNames(inCategory: nil)` on macOS 15 /
/// iOS 18, from Apple's Core Image documentation; CIAreaAverageMaximumRed and
/// CISignedDistanceGradientFromRedMask of macOS 16 / iOS 19, and CIBlurredRoundedRectangleGenerator,
/// CIRoundedQRCodeGenerator and CISystemToneMap of macOS 26 / iOS 26 from the attribute reference), so that a
/// name Core Image users know but this engine does not provide is answered as such rather than as a typo.
public enum CoreImageFilterNames {
    /// Every built-in Core Image filter name, sorted.
    public static let all: Set<String> = [
        "CIAccordionFoldTransition", "CIAdditionCompositing", "CIAffineClamp", "CIAffineTile", "CIAffineTransform",
        "CIAreaAlphaWeightedHistogram", "CIAreaAverage", "CIAreaAverageMaximumRed", "CIAreaBoundsRed",
        "CIAreaHistogram", "CIAreaLogarithmicHistogram", "CIAreaMaximum", "CIAreaMaximumAlpha", "CIAreaMinMax",
        "CIAreaMinMaxRed", "CIAreaMinimum", "CIAreaMinimumAlpha", "CIAttributedTextImageGenerator",
        "CIAztecCodeGenerator", "CIBarcodeGenerator", "CIBarsSwipeTransition", "CIBicubicScaleTransform",
        "CIBlendWithAlphaMask", "CIBlendWithBlueMask", "CIBlendWithMask", "CIBlendWithRedMask", "CIBloom",
        "CIBlurredRectangleGenerator", "CIBlurredRoundedRectangleGenerator", "CIBokehBlur", "CIBoxBlur",
        "CIBumpDistortion", "CIBumpDistortionLinear", "CICMYKHalftone", "CICameraCalibrationLensCorrection",
        "CICannyEdgeDetector", "CICheckerboardGenerator", "CICircleSplashDistortion", "CICircularScreen",
        "CICircularWrap", "CIClamp", "CICode128BarcodeGenerator", "CIColorAbsoluteDifference", "CIColorBlendMode",
        "CIColorBurnBlendMode", "CIColorClamp", "CIColorControls", "CIColorCrossPolynomial", "CIColorCube",
        "CIColorCubeWithColorSpace", "CIColorCubesMixedWithMask", "CIColorCurves", "CIColorDodgeBlendMode",
        "CIColorInvert", "CIColorMap", "CIColorMatrix", "CIColorMonochrome", "CIColorPolynomial", "CIColorPosterize",
        "CIColorThreshold", "CIColorThresholdOtsu", "CIColumnAverage", "CIComicEffect", "CIConstantColorGenerator",
        "CIConvertLabToRGB", "CIConvertRGBtoLab", "CIConvolution3X3", "CIConvolution5X5", "CIConvolution7X7",
        "CIConvolution9Horizontal", "CIConvolution9Vertical", "CIConvolutionRGB3X3", "CIConvolutionRGB5X5",
        "CIConvolutionRGB7X7", "CIConvolutionRGB9Horizontal", "CIConvolutionRGB9Vertical", "CICopyMachineTransition",
        "CICoreMLModelFilter", "CICrop", "CICrystallize", "CIDarkenBlendMode", "CIDepthBlurEffect", "CIDepthOfField",
        "CIDepthToDisparity", "CIDifferenceBlendMode", "CIDiscBlur", "CIDisintegrateWithMaskTransition",
        "CIDisparityToDepth", "CIDisplacementDistortion", "CIDissolveTransition", "CIDistanceGradientFromRedMask",
        "CIDither", "CIDivideBlendMode", "CIDocumentEnhancer", "CIDotScreen", "CIDroste",
        "CIEdgePreserveUpsampleFilter", "CIEdgeWork", "CIEdges", "CIEightfoldReflectedTile", "CIExclusionBlendMode",
        "CIExposureAdjust", "CIFalseColor", "CIFlashTransition", "CIFourfoldReflectedTile", "CIFourfoldRotatedTile",
        "CIFourfoldTranslatedTile", "CIGaborGradients", "CIGammaAdjust", "CIGaussianBlur", "CIGaussianGradient",
        "CIGlassDistortion", "CIGlassLozenge", "CIGlideReflectedTile", "CIGloom", "CIGuidedFilter",
        "CIHardLightBlendMode", "CIHatchedScreen", "CIHeightFieldFromMask", "CIHexagonalPixellate",
        "CIHighlightShadowAdjust", "CIHistogramDisplayFilter", "CIHoleDistortion", "CIHueAdjust", "CIHueBlendMode",
        "CIHueSaturationValueGradient", "CIKMeans", "CIKaleidoscope", "CIKeystoneCorrectionCombined",
        "CIKeystoneCorrectionHorizontal", "CIKeystoneCorrectionVertical", "CILabDeltaE", "CILanczosScaleTransform",
        "CILenticularHaloGenerator", "CILightTunnel", "CILightenBlendMode", "CILineOverlay", "CILineScreen",
        "CILinearBurnBlendMode", "CILinearDodgeBlendMode", "CILinearGradient", "CILinearLightBlendMode",
        "CILinearToSRGBToneCurve", "CILuminosityBlendMode", "CIMaskToAlpha", "CIMaskedVariableBlur",
        "CIMaximumComponent", "CIMaximumCompositing", "CIMaximumScaleTransform", "CIMedianFilter", "CIMeshGenerator",
        "CIMinimumComponent", "CIMinimumCompositing", "CIMix", "CIModTransition", "CIMorphologyGradient",
        "CIMorphologyMaximum", "CIMorphologyMinimum", "CIMorphologyRectangleMaximum", "CIMorphologyRectangleMinimum",
        "CIMotionBlur", "CIMultiplyBlendMode", "CIMultiplyCompositing", "CINinePartStretched", "CINinePartTiled",
        "CINoiseReduction", "CIOpTile", "CIOverlayBlendMode", "CIPDF417BarcodeGenerator", "CIPageCurlTransition",
        "CIPageCurlWithShadowTransition", "CIPaletteCentroid", "CIPalettize", "CIParallelogramTile",
        "CIPersonSegmentation", "CIPerspectiveCorrection", "CIPerspectiveRotate", "CIPerspectiveTile",
        "CIPerspectiveTransform", "CIPerspectiveTransformWithExtent", "CIPhotoEffectChrome", "CIPhotoEffectFade",
        "CIPhotoEffectInstant", "CIPhotoEffectMono", "CIPhotoEffectNoir", "CIPhotoEffectProcess",
        "CIPhotoEffectTonal", "CIPhotoEffectTransfer", "CIPinLightBlendMode", "CIPinchDistortion", "CIPixellate",
        "CIPointillize", "CIQRCodeGenerator", "CIRadialGradient", "CIRandomGenerator", "CIRippleTransition",
        "CIRoundedQRCodeGenerator", "CIRoundedRectangleGenerator", "CIRoundedRectangleStrokeGenerator",
        "CIRowAverage", "CISRGBToneCurveToLinear", "CISaliencyMapFilter", "CISampleNearest", "CISaturationBlendMode",
        "CIScreenBlendMode", "CISepiaTone", "CIShadedMaterial", "CISharpenLuminance",
        "CISignedDistanceGradientFromRedMask", "CISixfoldReflectedTile", "CISixfoldRotatedTile",
        "CISmoothLinearGradient", "CISobelGradients", "CISoftLightBlendMode", "CISourceAtopCompositing",
        "CISourceInCompositing", "CISourceOutCompositing", "CISourceOverCompositing", "CISpotColor", "CISpotLight",
        "CIStarShineGenerator", "CIStraightenFilter", "CIStretchCrop", "CIStripesGenerator", "CISubtractBlendMode",
        "CISunbeamsGenerator", "CISwipeTransition", "CISystemToneMap", "CITemperatureAndTint", "CITextImageGenerator",
        "CIThermal", "CIToneCurve", "CIToneMapHeadroom", "CITorusLensDistortion", "CITriangleKaleidoscope",
        "CITriangleTile", "CITwelvefoldReflectedTile", "CITwirlDistortion", "CIUnsharpMask", "CIVibrance",
        "CIVignette", "CIVignetteEffect", "CIVividLightBlendMode", "CIVortexDistortion", "CIWhitePointAdjust",
        "CIXRay", "CIZoomBlur"
    ]
}

extension CoreImageFilterNames {
    /// Core Image's filters that run Apple's neural networks (Vision models, Core ML), which this
    /// engine does not ship, with what to use instead.
    public static let neural: [String: String] = [
        "CIPersonSegmentation": "it runs Apple's Vision person-segmentation network; an iPhone portrait carries its own "
            + "person matte (\"auxiliary\": \"matte\"), and a mask of the subject can be made from its depth "
            + "(Examples/depth/depth-mask.json)",
        "CISaliencyMapFilter": "it runs Apple's Vision saliency network; GEFocusDisparity and `graph info` give the "
            + "photo's subject from its depth and regions",
        "CICoreMLModelFilter": "it runs a Core ML model, and Core ML exists only on Apple's systems; write the model's "
            + "operation as a custom kernel, or run the model elsewhere and load its output as an image",
        "CIDocumentEnhancer": "it runs Apple's document-enhancement network; CIColorControls, CIHighlightShadowAdjust "
            + "and CISharpenLuminance approximate it",
    ]
}

extension FilterRegistry {
    /// Why `name` is not a filter here, in words: for one of Apple's neural filters (the only Core
    /// Image filters this engine lacks) the reason and what to use instead, else
    /// `unknown filter "X" (did you mean "Y"?)` when a name is close (saying so when "Y" is one of
    /// the neural filters).
    public func unknownFilterMessage(_ name: String) -> String {
        let provided = filters.map(\.name)
        if let reason = CoreImageFilterNames.neural[name], !provided.contains(name) {
            return "\(name) is a Core Image filter this engine does not provide: \(reason)"
        }
        guard let suggestion = NameSuggestion.closest(to: name, among: provided + CoreImageFilterNames.all) else {
            return "unknown filter \"\(name)\""
        }
        let unprovided = provided.contains(suggestion) ? "" : ", a Core Image filter this engine does not provide"
        return "unknown filter \"\(name)\" (did you mean \"\(suggestion)\"\(unprovided)?)"
    }
}
